package dev.schedsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages in layers (docs/model.md, "The package map"): the shared state ({@code engine.sched}, what
 * sched.h is in the kernel) imports no mechanism; the mechanisms import it; the orchestration ({@code engine.core})
 * sits on top. A mechanism that calls up does so through an interface of its own package (fair.Bandwidth,
 * balance.MigrationOps, workload.ThreadOps). Only main classes are imported.
 */
class EngineLayoutTests {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim.engine");

    private static final String E = "dev.schedsim.engine.";

    /** The engine's subpackages (its entry, dev.schedsim.engine itself, is not one of them) import in no circle. */
    static final ArchRule SUBPACKAGES_FREE_OF_CYCLES = slices().matching("dev.schedsim.engine.(*)..").should()
            .beFreeOfCycles();

    /** The shared state is below every mechanism. */
    static final ArchRule STATE_BELOW_THE_MECHANISMS = noClasses().that().resideInAPackage(E + "sched..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.schedsim.engine", E + "core..", E + "fair..",
                    E + "bandwidth..", E + "select..", E + "balance..", E + "machine..", E + "stats..")
            .because("engine.sched holds the state the mechanisms share (sched.h): they import it, not the reverse");

    @Test
    void theImportSeesTheEnginesSubpackages() {
        // Guards against a vacuous pass: the rules must look at the real engine classes.
        assertTrue(ENGINE.contain(dev.schedsim.engine.sched.Task.class));
        assertTrue(ENGINE.contain(dev.schedsim.engine.fair.FairQueue.class));
        assertTrue(ENGINE.stream().anyMatch(c -> c.getName().equals("dev.schedsim.engine.core.Simulation")));
    }

    @Test
    void theEnginesSubpackagesAreFreeOfCycles() {
        SUBPACKAGES_FREE_OF_CYCLES.check(ENGINE);
    }

    @Test
    void theSharedStateImportsNoMechanism() {
        STATE_BELOW_THE_MECHANISMS.check(ENGINE);
    }

    /**
     * The same rule over every engine package, the entry included, finds the one circle left: the entry's records
     * (Report, EngineSpec, RunControl) are filled by core, and Engine.run starts core's Simulation (docs/model.md).
     * It shows the rule can fail.
     */
    @Test
    void theCycleRuleFindsTheEntrysCircle() {
        assertTrue(slices().matching("dev.schedsim.(**)").should().beFreeOfCycles().evaluate(ENGINE).hasViolation());
    }
}
