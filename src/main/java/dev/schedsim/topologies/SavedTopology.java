package dev.schedsim.topologies;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A named topology definition (the explicit topology JSON of a request, as accepted). */
@Entity
@Table(name = "saved_topology")
public class SavedTopology {
    @Id
    private String name;
    @Column(name = "definition_json")
    private String definitionJson;
    @Column(name = "created_at")
    private Instant createdAt;
    /** The API key name that saved it; null when security was off (then admin keys only see it). */
    private String owner;

    protected SavedTopology() {
    }

    public SavedTopology(String name, String definitionJson, Instant createdAt, String owner) {
        this.owner = owner;
        this.name = name;
        this.definitionJson = definitionJson;
        this.createdAt = createdAt;
    }

    public String getName() {
        return name;
    }

    public String getDefinitionJson() {
        return definitionJson;
    }

    public String getOwner() {
        return owner;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }
}
