package dev.schedsim.topologies;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schedsim.engine.Engine;
import dev.schedsim.engine.spec.HardwareModel;
import dev.schedsim.engine.spec.SchedDomainView;
import dev.schedsim.engine.spec.TopologySpec;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A preset or saved machine: what it is, its shape, CPU count, hardware model and the scheduling-domain levels
 * the kernel would build for it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record TopologyView(String name, String kind, String machine, String why, String description, int cpuCount,
                    Shape shape, HardwareModel hardware, List<SchedDomainView> levels) {

    record Shape(int sockets, int numaNodesPerSocket, int llcsPerNumaNode, int coresPerLlc, int threadsPerCore,
                 @Schema(description = "cores of each LLC when they differ, else null", types = {"array", "null"})
                 List<Integer> llcCores,
                 int cores) {
    }

    static TopologyView of(String name, String kind, String machine, String why, String description,
                           TopologySpec spec) {
        return new TopologyView(name, kind, machine, why, description, spec.cpuCount(),
                new Shape(spec.sockets(), spec.numaNodesPerSocket(), spec.llcsPerNumaNode(), spec.coresPerLlc(),
                        spec.threadsPerCore(), spec.llcCores(), spec.coreCount()),
                spec.hardware(), Engine.schedDomains(spec));
    }
}
