package dev.schedsim.topologies;

/**
 * The OpenAPI example of {@code POST /api/v1/topologies}; accepted as shipped (checked by the tests).
 */
public final class TopologyExamples {
    private TopologyExamples() {
    }

    public static final String TOPOLOGY = """
            {
              "name": "smt4-box",
              "description": "1 socket, 4 cores, SMT4 with a flatter SMT curve",
              "topology": {
                "sockets": 1, "numaNodesPerSocket": 1, "llcsPerNumaNode": 1, "coresPerLlc": 4, "threadsPerCore": 4,
                "hardware": { "smtThroughput": [1.0, 1.4, 1.7, 1.9] }
              }
            }""";
}
