package dev.schedsim.engine.spec;

import java.util.List;

/**
 * The shape of a machine: sockets → NUMA nodes → LLCs → cores → hardware threads.
 *
 * @param sockets            ≥ 1
 * @param numaNodesPerSocket ≥ 1
 * @param llcsPerNumaNode    ≥ 1
 * @param coresPerLlc        ≥ 1, the cores of every LLC unless {@code llcCores} lists them one by one
 * @param threadsPerCore     ≥ 1 (SMT width)
 * @param llcCores           optional: the core count of each LLC in order (for uneven machines such as
 *                           46 cores over 8 nodes); its length must be sockets × nodes × LLCs
 * @param hardware           the hardware model (null = the documented defaults for this SMT width)
 */
public record TopologySpec(int sockets, int numaNodesPerSocket, int llcsPerNumaNode, int coresPerLlc,
                           int threadsPerCore, List<Integer> llcCores, HardwareModel hardware) {
    public TopologySpec {
        if (sockets < 1 || numaNodesPerSocket < 1 || llcsPerNumaNode < 1 || coresPerLlc < 1
                || threadsPerCore < 1) {
            throw new IllegalArgumentException("all topology counts must be >= 1");
        }
        if (llcCores != null) {
            llcCores = List.copyOf(llcCores);
            if (llcCores.size() != sockets * numaNodesPerSocket * llcsPerNumaNode) {
                throw new IllegalArgumentException("llcCores must list one count per LLC");
            }
            for (int c : llcCores) {
                if (c < 1) {
                    throw new IllegalArgumentException("llcCores entries must be >= 1");
                }
            }
        }
        if (hardware == null) {
            hardware = HardwareModel.defaults(threadsPerCore);
        } else if (hardware.smtThroughput().length != threadsPerCore) {
            throw new IllegalArgumentException("smtThroughput must have threadsPerCore entries");
        }
    }

    /** The same shape with other hardware costs. */
    public TopologySpec withHardware(HardwareModel hw) {
        return new TopologySpec(sockets, numaNodesPerSocket, llcsPerNumaNode, coresPerLlc, threadsPerCore, llcCores,
                hw);
    }

    public static TopologySpec uniform(int sockets, int nodes, int llcs, int cores, int threads) {
        return new TopologySpec(sockets, nodes, llcs, cores, threads, null, null);
    }

    public int llcCount() {
        return sockets * numaNodesPerSocket * llcsPerNumaNode;
    }

    public int coreCount() {
        if (llcCores == null) {
            return llcCount() * coresPerLlc;
        }
        int n = 0;
        for (int c : llcCores) {
            n += c;
        }
        return n;
    }

    /** Hardware threads (logical CPUs). */
    public int cpuCount() {
        return coreCount() * threadsPerCore;
    }

    public int coresOfLlc(int llc) {
        return llcCores == null ? coresPerLlc : llcCores.get(llc);
    }
}
