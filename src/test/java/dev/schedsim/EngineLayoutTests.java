package dev.schedsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages in layers (docs/model.md, "The package map"): what a run takes and gives back
 * ({@code engine.api}) and the shared state ({@code engine.sched}, what sched.h is in the kernel) import no
 * mechanism; the mechanisms import them; the orchestration ({@code engine.core}) sits on top, and the entry
 * ({@code dev.schedsim.engine}: Engine, EngineRuns) above it. A mechanism that calls up does so through an interface
 * of its own package (fair.Bandwidth, balance.MigrationOps, workload.ThreadOps). Only main classes are imported.
 */
class EngineLayoutTests {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim.engine");

    private static final String E = "dev.schedsim.engine.";

    /** Every engine package, the entry dev.schedsim.engine included, imports in no circle. */
    static final ArchRule PACKAGES_FREE_OF_CYCLES = slices().matching("dev.schedsim.(**)").should()
            .beFreeOfCycles();

    /** What a run takes and gives back is below every mechanism: records and exceptions over engine.spec. */
    static final ArchRule API_BELOW_THE_MECHANISMS = classes().that().resideInAPackage(E + "api..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(E + "api..", E + "spec..", "java..")
            .because("core, stats and workload fill engine.api's records; the entry, which imports core, holds "
                    + "none of them, so no circle runs through it");

    /** Nothing in the engine imports its entry back. */
    static final ArchRule NOTHING_IMPORTS_THE_ENTRY = noClasses().that().resideInAPackage("dev.schedsim.engine..")
            .and().resideOutsideOfPackage("dev.schedsim.engine")
            .should().dependOnClassesThat().resideInAPackage("dev.schedsim.engine")
            .because("the entry (Engine, EngineRuns) starts core.Simulation: it is on top");

    /** The shared state is below every mechanism. */
    static final ArchRule STATE_BELOW_THE_MECHANISMS = noClasses().that().resideInAPackage(E + "sched..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.schedsim.engine", E + "core..", E + "fair..",
                    E + "bandwidth..", E + "select..", E + "balance..", E + "machine..", E + "stats..")
            .because("engine.sched holds the state the mechanisms share (sched.h): they import it, not the reverse");

    @Test
    void theImportSeesTheEnginesPackages() {
        // Guards against a vacuous pass: the rules must look at the real engine classes.
        assertTrue(ENGINE.contain(dev.schedsim.engine.Engine.class));
        assertTrue(ENGINE.contain(dev.schedsim.engine.api.Report.class));
        assertTrue(ENGINE.contain(dev.schedsim.engine.sched.Task.class));
        assertTrue(ENGINE.contain(dev.schedsim.engine.fair.FairQueue.class));
        assertTrue(ENGINE.stream().anyMatch(c -> c.getName().equals("dev.schedsim.engine.core.Simulation")));
    }

    @Test
    void theEnginesPackagesTheEntryIncludedAreFreeOfCycles() {
        PACKAGES_FREE_OF_CYCLES.check(ENGINE);
    }

    @Test
    void theApiImportsNoMechanism() {
        API_BELOW_THE_MECHANISMS.check(ENGINE);
    }

    @Test
    void noEnginePackageImportsTheEntry() {
        NOTHING_IMPORTS_THE_ENTRY.check(ENGINE);
    }

    @Test
    void theSharedStateImportsNoMechanism() {
        STATE_BELOW_THE_MECHANISMS.check(ENGINE);
    }

    /**
     * The cycle rule can fail: the engine's main classes with one test fixture, a core class that calls
     * Engine.run (engine.core.CoreCallsTheEntry), bring back the entry↔core circle the engine had while its records
     * lived in the entry, and the same rule finds it.
     */
    @Test
    void theCycleRuleFindsACircleThroughTheEntry() {
        JavaClasses withTheCircle = new ClassFileImporter()
                .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains("CoreCallsTheEntry"))
                .importPackages("dev.schedsim.engine");
        assertTrue(withTheCircle.stream().anyMatch(c -> c.getSimpleName().equals("CoreCallsTheEntry")));
        assertTrue(PACKAGES_FREE_OF_CYCLES.evaluate(withTheCircle).hasViolation());
        assertTrue(NOTHING_IMPORTS_THE_ENTRY.evaluate(withTheCircle).hasViolation());
    }
}
