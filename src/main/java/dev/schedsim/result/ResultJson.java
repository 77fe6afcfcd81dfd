package dev.schedsim.result;

import dev.schedsim.json.Json;

/** The result document's JSON: written exactly as stored and served, read back by the report page and gauges. */
public final class ResultJson {

    private ResultJson() {
    }

    public static String write(ResultDocument doc) {
        return Json.STORED.writeValueAsString(doc);
    }

    /** A stored document; fields it lacks (written by an older version) are null. */
    public static ResultDocument read(String json) {
        return Json.STORED.readValue(json, ResultDocument.class);
    }
}
