package dev.schedsim.advice;

import dev.schedsim.http.RequestReader;
import dev.schedsim.json.Json;
import dev.schedsim.queue.Durability;
import dev.schedsim.security.Clients;
import java.net.URI;
import java.time.Clock;
import java.util.UUID;
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
    private final org.springframework.transaction.support.TransactionTemplate transactions;

    AdviceSubmissions(Advices advices, AdviceRules rules, RequestReader reader, Durability durability, Clock clock,
                      Clients clients, dev.schedsim.queue.Admission admission,
                      org.springframework.transaction.support.TransactionTemplate transactions) {
        this.admission = admission;
        this.transactions = transactions;
        this.advices = advices;
        this.rules = rules;
        this.reader = reader;
        this.durability = durability;
        this.clock = clock;
        this.clients = clients;
    }

    /** Submits an advice request body (JSON): 202 with Location /api/v1/advice/{id} and the advice as it starts. */
    public ResponseEntity<Object> submit(String body) {
        ResponseEntity<AdviceView> r = accept(body);
        return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders()).body(r.getBody());
    }

    ResponseEntity<AdviceView> accept(String body) {
        AdviceRequest r = reader.read(body, AdviceRequest.class);
        AdviceSpec spec = rules.accept(r);
        String id = UUID.randomUUID().toString();
        String owner = clients.owner();
        // Inside the client's limits like a simulation (issue 36): its lock held, counted and written at once.
        Advice a = admission.exclusive(owner, () -> transactions.execute(tx -> {
            admission.admit(owner, 1);
            return advices.saveAndFlush(new Advice(id, spec.name(), clock.instant(),
                    Json.REQUEST.writeValueAsString(spec), AdviceDriver.startState(spec), owner));
        }));
        durability.flush();
        return ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create("/api/v1/advice/" + id))
                .body(AdviceView.of(a, reader));
    }
}
