package dev.schedsim.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedsim.EndToEnd;
import dev.schedsim.client.ApiClient;
import dev.schedsim.client.ApiException;
import dev.schedsim.client.api.SimulationsApi;
import dev.schedsim.client.model.CgroupRequest;
import dev.schedsim.client.model.ComparisonRow;
import dev.schedsim.client.model.Feature;
import dev.schedsim.client.model.KernelProfileName;
import dev.schedsim.client.model.KernelRequest;
import dev.schedsim.client.model.PageViewSimulationView;
import dev.schedsim.client.model.ProblemDetail;
import dev.schedsim.client.model.ResultDocument;
import dev.schedsim.client.model.SimulationRequest;
import dev.schedsim.client.model.SimulationView;
import dev.schedsim.client.model.TopologyPreset;
import dev.schedsim.client.model.TopologyRequest;
import dev.schedsim.client.model.TopologyRequestPreset;
import dev.schedsim.client.model.Variant;
import dev.schedsim.client.model.VariantRequest;
import dev.schedsim.client.model.Workload;
import dev.schedsim.client.model.WorkloadRequest;
import dev.schedsim.client.model.WorkloadType;
import dev.schedsim.queue.LocalPostgres;
import dev.schedsim.queue.PostgresSchema;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client generated at build time from the committed OpenAPI document (openapi-generator's Java client, package
 * dev.schedsim.client; OpenApiContractTests keeps the document the served one) submits a simulation, polls it
 * and reads its result with typed fields, against the running service on PostgreSQL. The client's JSON reader
 * fails on any field the schemas do not declare, so every answer here is described by the document; the errors
 * read as its ProblemDetail.
 */
@EnabledIf(value = "dev.schedsim.queue.LocalPostgres#available",
        disabledReason = "no PostgreSQL: neither SPRING_DATASOURCE_URL nor one on 127.0.0.1:5432 (database test)")
class OpenApiClientTests {

    /** Two variants of two threads of 100 ms of work each on the 2-CPU machine, twice each. */
    static SimulationRequest request(String name) {
        return new SimulationRequest().name(name)
                .topology(new TopologyRequest().preset(new TopologyRequestPreset(TopologyPreset.VALIDATION_2C)))
                .kernel(new KernelRequest().profile(KernelProfileName._6_18).hz(KernelRequest.HzEnum.NUMBER_250))
                .cgroups(List.of(new CgroupRequest().path("/a").cpuWeight(200)))
                .workloads(List.of(new WorkloadRequest().name("w").cgroup("/a").type(WorkloadType.CPU_BOUND)
                        .threads(2).workUs(100_000L)))
                .durationMs(500L).repetitions(2)
                .variants(List.of(new VariantRequest().label("aligned").kernel(new KernelRequest()
                                .putFeaturesItem(Feature.BANDWIDTH_TIMER_INTERLEAVE.getValue(), false)),
                        new VariantRequest().label("interleaved").kernel(new KernelRequest()
                                .putFeaturesItem(Feature.BANDWIDTH_TIMER_INTERLEAVE.getValue(), true))));
    }

    private static List<String> withPollInterval(List<String> database) {
        List<String> properties = new java.util.ArrayList<>(database);
        properties.add("schedsim.poll-interval=20ms");
        return properties;
    }

    @Test
    void aGeneratedClientSubmitsPollsAndReadsTheResult() throws Exception {
        // (in a schema of its own, dropped at the end: the shared database keeps no tables of this test)
        try (PostgresSchema schema = PostgresSchema.named("client_");
             ConfigurableApplicationContext service = EndToEnd.start(withPollInterval(schema.properties()))) {
            int port = ((WebServerApplicationContext) service).getWebServer().getPort();
            ObjectMapper strict = ApiClient.createDefaultObjectMapper()
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
            ApiClient client = new ApiClient().setObjectMapper(strict);
            client.updateBaseUri("http://localhost:" + port);
            SimulationsApi simulations = new SimulationsApi(client);

            String key = UUID.randomUUID().toString();
            String name = "client-" + key.substring(0, 8);
            SimulationView submitted = simulations.submitSimulation(request(name), key);
            assertThat(submitted.getStatus()).isIn(SimulationView.StatusEnum.QUEUED,
                    SimulationView.StatusEnum.RUNNING, SimulationView.StatusEnum.SUCCEEDED);
            String id = submitted.getId().toString();
            // the accepted request, typed, with the defaults filled in
            assertThat(submitted.getRequest().getSeed()).isEqualTo(42L);
            assertThat(submitted.getRequest().getVariants()).extracting(VariantRequest::getLabel)
                    .containsExactly("aligned", "interleaved");

            SimulationView done = submitted;
            for (int i = 0; i < 6000 && done.getStatus() != SimulationView.StatusEnum.SUCCEEDED
                    && done.getStatus() != SimulationView.StatusEnum.FAILED; i++) {
                Thread.sleep(50);
                done = simulations.getSimulation(id);
            }
            assertThat(done.getStatus()).as(String.valueOf(done.getError())).isEqualTo(SimulationView.StatusEnum.SUCCEEDED);
            assertThat(done.getProgress()).isEqualTo(1.0);

            ResultDocument result = done.getResult();
            assertThat(result.getVariants()).extracting(Variant::getLabel).containsExactly("aligned", "interleaved");
            for (Variant v : result.getVariants()) {
                assertThat(v.getRepetitions()).isEqualTo(2);
                assertThat(v.getRuns()).hasSize(2);
                Workload w = v.getWorkloads().get(0);
                assertThat(w.getName()).isEqualTo("w");
                // 2 threads x 100 ms of work on 2 CPUs, plus a little modelled kernel time; done in ~100 ms
                assertThat(w.getCpuUsec()).isBetween(200_000.0, 210_000.0);
                assertThat(w.getCompletionUs()).isBetween(100_000.0, 200_000.0);
                assertThat(w.getWakeupLatencyUs()).isNotNull();
            }
            assertThat(result.getComparison()).extracting(ComparisonRow::getVariant).contains("interleaved");
            assertThat(simulations.getSimulationResult(id)).isEqualTo(result);

            // the same key and body: the same simulation, 200 with its result
            SimulationView replay = simulations.submitSimulation(request(name), key);
            assertThat(replay.getId()).isEqualTo(submitted.getId());
            assertThat(replay.getResult()).isEqualTo(result);

            PageViewSimulationView page = simulations.listSimulations("SUCCEEDED", name, 0, 20);
            assertThat(page.getContent()).extracting(SimulationView::getId).containsExactly(submitted.getId());
            assertThat(page.getContent().get(0).getResult()).as("list entries leave the result out").isNull();

            // errors are the document's ProblemDetail
            SimulationRequest invalid = request("client-invalid");
            invalid.getCgroups().get(0).cpuWeight(0);
            assertThatThrownBy(() -> simulations.submitSimulation(invalid, null)).isInstanceOfSatisfying(
                    ApiException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(400);
                        ProblemDetail p = problem(strict, e);
                        assertThat(p.getType().toString()).endsWith("/validation");
                        assertThat(p.getErrors()).extracting(v -> v.getField()).containsExactly("cgroups[0].cpuWeight");
                    });
            assertThatThrownBy(() -> simulations.getSimulation(UUID.randomUUID().toString())).isInstanceOfSatisfying(
                    ApiException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(404);
                        assertThat(problem(strict, e).getStatus()).isEqualTo(404);
                    });

            simulations.deleteSimulation(id);
            assertThatThrownBy(() -> simulations.getSimulationResult(id)).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.getCode()).isEqualTo(404));
        }
    }

    private static ProblemDetail problem(ObjectMapper mapper, ApiException e) {
        try {
            return mapper.readValue(e.getResponseBody(), ProblemDetail.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
            throw new AssertionError(e.getResponseBody(), x);
        }
    }
}
