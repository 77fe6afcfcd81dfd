package dev.schedsim.queue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A job's plan as stored (migration V8): written once with the job, in a table of its own that no update
 * touches (the reason of V3), and deleted with it.
 */
@Entity
@Table(name = "simulation_plan")
public class StoredPlan {
    @Id
    @Column(name = "simulation_id")
    private String simulationId;
    @Column(name = "plan_json")
    private String planJson;

    protected StoredPlan() {
    }

    /** The column's size (V8: varchar(10485760), PostgreSQL's largest varchar). */
    static final int COLUMN_CHARS = 10_485_760;
    /** Plans above this are stored gzip-compressed, base64, after {@link #GZIP}. */
    static final int COMPRESS_ABOVE_CHARS = 256 * 1024;
    static final String GZIP = "gzip:";

    StoredPlan(String simulationId, String stored) {
        this.simulationId = simulationId;
        this.planJson = stored;
    }

    /**
     * What is stored for a plan's JSON: the text itself, or above {@link #COMPRESS_ABOVE_CHARS} its gzip in base64
     * (a plan repeats every variant's workloads, so a sweep over an 8 MB trace would not fit as text).
     */
    static String encode(String planJson) {
        if (planJson.length() <= COMPRESS_ABOVE_CHARS) {
            return planJson;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(planJson.length() / 8);
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(planJson.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return GZIP + Base64.getEncoder().encodeToString(out.toByteArray());
    }

    String getPlanJson() {
        if (!planJson.startsWith(GZIP)) {
            return planJson;
        }
        byte[] gz = Base64.getDecoder().decode(planJson.substring(GZIP.length()));
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
