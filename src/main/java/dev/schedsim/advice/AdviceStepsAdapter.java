package dev.schedsim.advice;

import dev.schedsim.http.ClientLimitException;
import dev.schedsim.http.QueueFullException;
import dev.schedsim.http.RequestReader;
import dev.schedsim.http.StateConflictException;
import dev.schedsim.json.Json;
import dev.schedsim.queue.SimulationControl;
import dev.schedsim.queue.SimulationJob;
import dev.schedsim.queue.SimulationStatus;
import dev.schedsim.result.ResultJson;
import dev.schedsim.simulations.Submissions;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The advisor's steps as ordinary simulations: the request with one variant per setting (the sized cgroup's cpu.max
 * and cpu.max.burst overridden, labelled as {@link AdviceSearch.Setting#label()}), the advice's repetitions, through
 * {@link Submissions} with an idempotency key, so a step is validated, limited, queued and run like any submission.
 */
@Component
class AdviceStepsAdapter implements AdviceSteps {
    private final Submissions submissions;
    private final SimulationControl simulations;
    private final RequestReader reader;
    /**
     * A step is submitted in a transaction of its own: a refusal (the client's limits, the full queue) inside the
     * driver's transaction would mark that one rollback-only, and the advice would fail at its commit
     * (UnexpectedRollbackException) instead of waiting for the next poll. Its idempotency key makes the next poll's
     * submission the same simulation if the driver's own commit fails after this one.
     */
    private final TransactionTemplate ownTransaction;

    AdviceStepsAdapter(Submissions submissions, SimulationControl simulations, RequestReader reader,
                       PlatformTransactionManager transactionManager) {
        this.submissions = submissions;
        this.simulations = simulations;
        this.reader = reader;
        this.ownTransaction = new TransactionTemplate(transactionManager);
        ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** The step's simulation request: the advice's request with a variant per setting. */
    String stepRequest(AdviceSpec spec, List<AdviceSearch.Setting> settings, boolean withCurrent, String name) {
        ObjectNode r = (ObjectNode) spec.request().deepCopy();
        r.put("name", name);
        r.put("repetitions", spec.repetitions());
        ArrayNode variants = r.putArray("variants");
        if (withCurrent) {
            variants.addObject().put("label", CURRENT);
            // without a limit: whether removing it is the better answer, and what the cgroup then takes
            ArrayNode cgroups = variants.addObject().put("label", UNLIMITED).putArray("cgroups");
            cgroups.addObject().put("path", spec.cgroup()).put("cpuMax", "max").put("cpuMaxBurst", 0);
            if (spec.pod() != null) { // (a container without a limit leaves the pod cgroup without one)
                cgroups.addObject().put("path", spec.pod().cgroup()).put("cpuMax", "max");
            }
        }
        for (AdviceSearch.Setting s : settings) {
            ObjectNode v = variants.addObject();
            v.put("label", s.label());
            ArrayNode cgroups = v.putArray("cgroups");
            ObjectNode c = cgroups.addObject();
            c.put("path", spec.cgroup());
            c.put("cpuMax", s.cpuMax());
            c.put("cpuMaxBurst", s.burstUs());
            if (s.workload() != null) { // an observed advice: the fitted workload this point sizes
                ObservedFamily.Candidate w = spec.observed().workloads().get(s.workload());
                v.putArray("workloads").addObject().put("name", ObservedFit.WORKLOAD).put("runUs", w.runUs())
                        .put("sleepUs", w.sleepUs());
            }
            if (spec.pod() != null) { // the pod's limit is the sum of its containers' (ResourceConfigForPod)
                cgroups.addObject().put("path", spec.pod().cgroup())
                        .put("cpuMax", (spec.pod().otherQuotaUs() + s.quotaUs()) + " " + s.periodUs());
            }
        }
        return Json.REQUEST.writeValueAsString(r);
    }

    @Override
    public String submit(AdviceSpec spec, List<AdviceSearch.Setting> settings, boolean withCurrent, String name,
                         String key, String owner) {
        try {
            String body = stepRequest(spec, settings, withCurrent, name);
            var answer = ownTransaction.execute(tx -> submissions.submit(body, key, owner));
            String location = answer.getHeaders().getLocation().getPath();
            return location.substring(location.lastIndexOf('/') + 1);
        } catch (QueueFullException | ClientLimitException e) {
            return null; // (full now: the next poll submits it)
        }
    }

    @Override
    public Step poll(String simulationId) {
        Optional<SimulationJob> job = simulations.find(simulationId);
        if (job.isEmpty()) {
            return null;
        }
        SimulationJob j = job.get();
        String result = j.getStatus() == SimulationStatus.SUCCEEDED ? simulations.result(j) : null;
        return new Step(j.getStatus(), j.getProgress(), result == null ? null : ResultJson.read(result),
                j.getErrorJson());
    }

    @Override
    public void cancel(String simulationId) {
        try {
            simulations.cancel(simulationId);
        } catch (StateConflictException e) {
            // it ended meanwhile
        }
    }
}
