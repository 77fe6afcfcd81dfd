package dev.schedsim.advice;

import dev.schedsim.http.RequestReader;
import dev.schedsim.json.Json;
import dev.schedsim.queue.Durability;
import dev.schedsim.security.Clients;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import dev.schedsim.http.InvalidRequestException;
import dev.schedsim.kubernetes.Manifests;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * The one submission path of {@code POST /api/v1/advice}: strict reading, the advice's rules (400 / 422), the row
 * (durable before the answer) and the 202 + Location answer. An advice scenario of the library is submitted
 * through it too, so running one by name answers exactly like posting its request.
 */
@Component
public class AdviceSubmissions {
    private final Advices advices;
    private final AdviceRules rules;
    private final RequestReader reader;
    private final Durability durability;
    private final Clock clock;
    private final Clients clients;

    private final dev.schedsim.queue.Admission admission;
    private final FitPermits fits;
    private final org.springframework.transaction.support.TransactionTemplate transactions;

    AdviceSubmissions(Advices advices, AdviceRules rules, RequestReader reader, Durability durability, Clock clock,
                      Clients clients, dev.schedsim.queue.Admission admission,
                      org.springframework.transaction.support.TransactionTemplate transactions, FitPermits fits) {
        this.fits = fits;
        this.admission = admission;
        this.transactions = transactions;
        this.advices = advices;
        this.rules = rules;
        this.reader = reader;
        this.durability = durability;
        this.clock = clock;
        this.clients = clients;
    }

    /**
     * A Kubernetes object posted as it is (what kubectl printed) is not an advice request: answered with the exact
     * request that wraps it, rather than an unknown field "apiVersion".
     */
    private static void notAManifest(String body) {
        tools.jackson.databind.JsonNode tree;
        try {
            tree = Json.STORED.readTree(body);
        } catch (RuntimeException e) {
            return; // (the strict reading names what is wrong)
        }
        if (tree == null || !tree.isObject() || !tree.has("apiVersion") || !tree.has("kind")) {
            return;
        }
        String kind = tree.path("kind").asString("object");
        StringBuilder workloads = new StringBuilder();
        for (tools.jackson.databind.JsonNode c : Manifests.containers(tree)) {
            workloads.append(workloads.length() == 0 ? "" : ", ").append('"').append(c.path("name").asString(""))
                    .append("\": {\"type\": \"periodic\", \"threads\": 2, \"runUs\": 2000, \"sleepUs\": 8000}");
        }
        throw new InvalidRequestException(false, List.of(new dev.schedsim.http.Violation("$", "this is a Kubernetes "
                + kind + ", not an advice request; send it wrapped, with the node and what each container runs: "
                + "{\"kubernetes\": {\"pod\": <this " + kind + ">, \"topology\": {\"preset\": \"validation-2c\"}, "
                + "\"workloads\": {" + workloads + "}}, \"objective\": {\"preset\": \"CPUThrottlingHigh\"}} "
                + "(without kubernetes.container every container is advised)")),
                InvalidRequestException.Kind.NOT_THIS_ENDPOINT);
    }

    /** Submits an advice request body (JSON): 202 with Location /api/v1/advice/{id} and the advice as it starts. */
    public ResponseEntity<Object> submit(String body) {
        ResponseEntity<AdviceView> r = accept(body);
        return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders()).body(r.getBody());
    }

    /** The advice's specs: one, or one per container of a pod advised at once (all checked first). */
    private List<AdviceSpec> specs(AdviceRequest r) {
        List<AdviceSpec> specs = new ArrayList<>();
        List<String> containers = r.kubernetes() != null && r.kubernetes().container() == null && r.request() == null
                ? Manifests.containers(r.kubernetes().pod()).stream().map(c -> c.path("name").asString("")).toList()
                : List.of();
        if (containers.size() > 1) {
            // every container at once: one advice each, all accepted before any is stored
            if (r.workload() != null) {
                throw InvalidRequestException.of("workload", "leave it out when every container is advised: "
                        + "each container's objective is about its own workload (or give kubernetes.container)");
            }
            containers.forEach(c -> specs.add(rules.accept(r.withContainer(c))));
        } else {
            specs.add(rules.accept(containers.size() == 1 ? r.withContainer(containers.get(0)) : r));
        }
        return specs;
    }

    ResponseEntity<AdviceView> accept(String body) {
        notAManifest(body);
        AdviceRequest r = reader.read(body, AdviceRequest.class);
        String owner = clients.owner();
        if (r.observed() != null) {
            // The fit runs while the advice is accepted: a client its limits refuse now is refused before it
            // costs the fit's runs (the admission below still decides, with the rows as they are then).
            admission.exclusive(owner, () -> transactions.execute(tx -> {
                admission.admit(owner, 1, 1);
                return null;
            }));
        }
        List<AdviceSpec> specs;
        // (an observed advice is fitted here, on every CPU: FitPermits bounds how many at once)
        try (FitPermits.Permit fit = r.observed() != null ? fits.take(owner) : FitPermits.Permit.NONE) {
            specs = specs(r);
        }
        List<AdviceSpec.Member> group = new ArrayList<>();
        specs.forEach(s -> group.add(new AdviceSpec.Member(s.container(), UUID.randomUUID().toString())));
        // Inside the client's limits like a simulation (issue 36): its lock held, counted and written at once.
        Advice first = admission.exclusive(owner, () -> transactions.execute(tx -> {
            admission.admit(owner, specs.size(), specs.size());
            Advice head = null;
            for (int i = 0; i < specs.size(); i++) {
                AdviceSpec spec = specs.size() > 1 ? specs.get(i).withGroup(group) : specs.get(i);
                Advice a = advices.saveAndFlush(new Advice(group.get(i).id(), spec.name(), clock.instant(),
                        Json.REQUEST.writeValueAsString(spec), AdviceDriver.startState(spec), owner));
                head = head == null ? a : head;
            }
            return head;
        }));
        durability.flush();
        return ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create("/api/v1/advice/" + first.getId()))
                .body(AdviceView.of(first, reader, advices));
    }
}
