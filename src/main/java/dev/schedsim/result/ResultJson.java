package dev.schedsim.result;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The result document's JSON: written exactly as stored and served, read back by the report page and gauges. */
public final class ResultJson {
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private ResultJson() {
    }

    public static String write(ResultDocument doc) {
        return JSON.writeValueAsString(doc);
    }

    /** A stored document; fields it lacks (written by an older version) are null. */
    public static ResultDocument read(String json) {
        return JSON.readValue(json, ResultDocument.class);
    }
}
