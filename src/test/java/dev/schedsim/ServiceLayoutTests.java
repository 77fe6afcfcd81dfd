package dev.schedsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The service's packages by feature (docs/model.md, "The service's packages"): each top-level package under
 * {@code dev.schedsim} is a feature or a shared piece, and none of them import each other in a circle, so that
 * a feature can be read, and changed, from its own folder down. The shared pieces depend on no feature.
 * (scripts/package-graph.py prints the same graph from the sources.)
 */
class ServiceLayoutTests {
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim");

    /** The packages everyone may use: they use no feature (and the engine only through its entry and spec). */
    private static final String[] FEATURES = {"dev.schedsim.advice..", "dev.schedsim.kernels..",
        "dev.schedsim.kubernetes..", "dev.schedsim.metrics..", "dev.schedsim.openapi..", "dev.schedsim.queue..",
        "dev.schedsim.reports..", "dev.schedsim.request..", "dev.schedsim.result..", "dev.schedsim.scenarios..",
        "dev.schedsim.security..", "dev.schedsim.simulations..", "dev.schedsim.topologies..",
        "dev.schedsim.trace.."};

    static ArchRule noCircles(String slicePattern) {
        return slices().matching(slicePattern).should().beFreeOfCycles()
                .because("a package that imports a package that imports it back cannot be read on its own");
    }

    static final ArchRule SHARED_USE_NO_FEATURE = noClasses()
            .that().resideInAnyPackage("dev.schedsim", "dev.schedsim.http..", "dev.schedsim.json..")
            .should().dependOnClassesThat().resideInAnyPackage(FEATURES)
            .because("http (bodies, problems), json (the formats) and the service's settings are shared by every "
                    + "feature: a feature they knew would be in a circle with the others");

    static final ArchRule THE_REQUEST_KNOWS_NO_ENDPOINT = noClasses()
            .that().resideInAPackage("dev.schedsim.request..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.schedsim.simulations..", "dev.schedsim.queue..",
                    "dev.schedsim.trace..", "dev.schedsim.kubernetes..", "dev.schedsim.topologies..",
                    "dev.schedsim.advice..", "org.springframework.web..")
            .because("the request and its plan are what the endpoints, the conversions and the queue share");

    @Test
    void theImportSeesEveryServicePackage() {
        Set<String> packages = SERVICE.stream().map(c -> c.getPackageName()).collect(Collectors.toSet());
        for (String f : FEATURES) {
            assertThat(packages).as(f).contains(f.substring(0, f.length() - 2));
        }
        assertThat(SERVICE.stream().noneMatch(c -> c.getSimpleName().endsWith("Tests"))).isTrue();
    }

    @Test
    void theServicePackagesImportEachOtherInNoCircle() {
        noCircles("dev.schedsim.(*)..").check(SERVICE);
    }

    @Test
    void theSharedPackagesUseNoFeature() {
        SHARED_USE_NO_FEATURE.check(SERVICE);
    }

    @Test
    void theRequestKnowsNoEndpointConversionOrQueue() {
        THE_REQUEST_KNOWS_NO_ENDPOINT.check(SERVICE);
    }

    @Test
    void theCircleRuleCanFail() {
        JavaClasses circle = new ClassFileImporter().importPackages("dev.schedsim.layout");
        assertThat(circle.size()).isEqualTo(2);
        assertThat(noCircles("dev.schedsim.layout.(*)..").evaluate(circle).hasViolation()).isTrue();
    }
}
