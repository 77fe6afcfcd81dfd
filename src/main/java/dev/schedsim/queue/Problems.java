package dev.schedsim.queue;

import dev.schedsim.json.Json;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The problem documents (RFC 9457) stored as a failed simulation's {@code error}. */
final class Problems {
    static final String PROBLEM_BASE = "https://schedsim.dev/problems/";

    private Problems() {
    }

    static String json(String type, String title, int status, String detail) {
        return Json.STORED.writeValueAsString(problem(type, title, status, detail));
    }

    static String json(ObjectNode problem) {
        return Json.STORED.writeValueAsString(problem);
    }

    static ObjectNode problem(String type, String title, int status, String detail) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", PROBLEM_BASE + type);
        n.put("title", title);
        n.put("status", status);
        n.put("detail", detail);
        return n;
    }
}
