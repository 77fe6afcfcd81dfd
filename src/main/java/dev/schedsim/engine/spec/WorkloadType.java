package dev.schedsim.engine.spec;

/** The workload kinds of docs/api.md ("workloads"), by their fixed wire names. */
public enum WorkloadType {
    CPU_BOUND("cpu-bound"),
    PERIODIC("periodic"),
    REQUEST_RESPONSE("request-response"),
    HACKBENCH("hackbench"),
    SCHBENCH("schbench"),
    TRACE("trace"),
    PHASES("phases");

    private final String wireName;

    WorkloadType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The type of that wire name, or null. */
    public static WorkloadType byWireName(String name) {
        for (WorkloadType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
