package dev.schedsim.kubernetes;

import java.util.List;

/**
 * A pod's quality-of-service class, as kubernetes pkg/apis/core/v1/helper/qos/qos.go ComputePodQOS decides it from
 * the cpu and memory requests and limits of its init and app containers (after the API server's defaulting of
 * requests to limits).
 */
public enum QosClass {
    GUARANTEED("Guaranteed"), BURSTABLE("Burstable"), BEST_EFFORT("BestEffort");

    private final String wireName;

    QosClass(String wireName) {
        this.wireName = wireName;
    }

    /** v1.PodQOSClass's spelling. */
    public String wireName() {
        return wireName;
    }

    /**
     * ComputePodQOS: the first Burstable container makes the pod Burstable; otherwise all containers must agree
     * (a BestEffort one beside a Guaranteed one is Burstable too); no container at all is BestEffort.
     */
    static QosClass computePodQos(List<PodCgroups.ContainerResources> containers) {
        QosClass pod = null;
        for (PodCgroups.ContainerResources c : containers) {
            QosClass q = resourceQos(c);
            if (q == BURSTABLE) {
                return q;
            }
            if (pod == null) {
                pod = q;
            } else if (pod != q) {
                return BURSTABLE;
            }
        }
        return pod == null ? BEST_EFFORT : pod;
    }

    /**
     * resourceQOS, over supportedQoSComputeResources (cpu, memory): a request unequal to its limit is Burstable;
     * both zero everywhere is BestEffort; both set and equal everywhere Guaranteed; a mix Burstable.
     */
    static QosClass resourceQos(PodCgroups.ContainerResources c) {
        QosClass q = null;
        Quantity[][] pairs = {{c.cpuRequest(), c.cpuLimit()}, {c.memoryRequest(), c.memoryLimit()}};
        for (Quantity[] pair : pairs) {
            Quantity req = pair[0];
            Quantity lim = pair[1];
            boolean reqZero = req == null || req.isZero();
            boolean limZero = lim == null || lim.isZero();
            boolean equal = reqZero && limZero || !reqZero && !limZero && req.sameAs(lim);
            if (!equal) {
                return BURSTABLE;
            }
            boolean bestEffort = reqZero;
            if (q == null) {
                q = bestEffort ? BEST_EFFORT : GUARANTEED;
            } else if (bestEffort != (q == BEST_EFFORT)) {
                return BURSTABLE;
            }
        }
        return q;
    }
}
