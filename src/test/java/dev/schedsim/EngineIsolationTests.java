package dev.schedsim;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The engine stays pure Java (docs/model.md: spec in, report out; no Spring, no I/O)
 * and deterministic (no wall clock, one seeded generator per run). Only main classes
 * are imported, so test helpers (benchmarks that time themselves) do not count.
 */
class EngineIsolationTests {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim.engine");

    /** Calls that read a wall clock or an unseeded random source. */
    static final DescribedPredicate<JavaMethodCall> WALL_CLOCK_OR_UNSEEDED_RANDOM =
            new DescribedPredicate<>("a wall-clock read or an unseeded random source") {
                @Override
                public boolean test(JavaMethodCall call) {
                    String owner = call.getTarget().getOwner().getName();
                    String name = call.getTarget().getName();
                    return owner.equals("java.lang.System") && Set.of("currentTimeMillis", "nanoTime").contains(name)
                            || owner.equals("java.lang.Math") && name.equals("random")
                            || owner.equals("java.lang.StrictMath") && name.equals("random")
                            // Clock.systemUTC()/millis()/instant(), Instant.now(), LocalDateTime.now() …
                            || owner.equals("java.time.Clock")
                            || owner.startsWith("java.time.") && name.equals("now")
                            || owner.equals("java.util.concurrent.ThreadLocalRandom") && name.equals("current");
                }
            };

    /** The main classes of the whole service. */
    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim");

    /** The engine's internals: every engine package but its entry, its api and its spec records. */
    static final DescribedPredicate<com.tngtech.archunit.core.domain.JavaClass> ENGINE_INTERNALS =
            resideInAPackage("dev.schedsim.engine..")
                    .and(DescribedPredicate.not(resideInAnyPackage("dev.schedsim.engine", "dev.schedsim.engine.api",
                            "dev.schedsim.engine.spec")))
                    .as("engine internals (anything but dev.schedsim.engine, engine.api and engine.spec)");

    static final ArchRule ONLY_THE_ENTRY = noClasses().that().resideOutsideOfPackage("dev.schedsim.engine..")
            .should().dependOnClassesThat(ENGINE_INTERNALS)
            .because("the service uses the engine through Engine, engine.api (EngineSpec, Report, RunControl) and "
                    + "engine.spec only (docs/model.md), so that the engine's inside can change without the service "
                    + "noticing");

    /** One owner per piece of shared state: the fields others read, each written by one class only. */
    static final ArchRule[] OWNERS = {
        owner("dev.schedsim.engine.event.SimClock", "now", "dev.schedsim.engine.core.Simulation"),
        owner("dev.schedsim.engine.sched.Cpu", "curr", "dev.schedsim.engine.sched.RunQueues"),
        owner("dev.schedsim.engine.sched.Cpu", "nrRunning", "dev.schedsim.engine.sched.RunQueues"),
        owner("dev.schedsim.engine.sched.Cpu", "overheadDebt", "dev.schedsim.engine.machine.Execution"),
        owner("dev.schedsim.engine.sched.Cpu", "rate", "dev.schedsim.engine.machine.Smt"),
        owner("dev.schedsim.engine.sched.CfsRq", "throttled", "dev.schedsim.engine.bandwidth.Throttle"),
        owner("dev.schedsim.engine.sched.CfsRq", "throttleCount", "dev.schedsim.engine.bandwidth.Throttle"),
        owner("dev.schedsim.engine.sched.CfsRq", "hNrRunning", "dev.schedsim.engine.fair.FairQueue"),
    };

    /** fair.c's view of bandwidth control is fair.Bandwidth: bandwidth may reach into fair, not the reverse. */
    static final ArchRule FAIR_DOES_NOT_IMPORT_BANDWIDTH = noClasses().that().resideInAPackage("dev.schedsim.engine.fair..")
            .should().dependOnClassesThat().resideInAPackage("dev.schedsim.engine.bandwidth..")
            .because("the fair class asks bandwidth control through fair.Bandwidth only, so the two packages "
                    + "do not import each other");

    private static ArchRule owner(String holder, String field, String writer) {
        return noClasses().that().doNotHaveFullyQualifiedName(writer).and().doNotHaveFullyQualifiedName(holder)
                .should().setField(holder, field)
                .because(holder.substring(holder.lastIndexOf('.') + 1) + "." + field + " has one owner, "
                        + writer.substring(writer.lastIndexOf('.') + 1));
    }

    static final ArchRule NO_FRAMEWORKS = noClasses().that().resideInAPackage("dev.schedsim.engine..")
            .should().dependOnClassesThat()
            .resideInAnyPackage("org.springframework..", "jakarta..", "javax..", "java.sql..")
            .because("the engine is pure Java: no Spring, no Jakarta, no JDBC (docs/model.md)");

    static final ArchRule NO_WALL_CLOCK = noClasses().that().resideInAPackage("dev.schedsim.engine..")
            .should().callMethodWhere(WALL_CLOCK_OR_UNSEEDED_RANDOM)
            .orShould().dependOnClassesThat().belongToAnyOf(java.time.Clock.class)
            .because("same spec + same seed must give the same report on any machine");

    @Test
    void theImportSeesTheEngineButNoTests() {
        // Guards against a vacuous pass: the rules below must look at the real engine classes.
        assertTrue(ENGINE.contain(dev.schedsim.engine.Engine.class));
        assertTrue(ENGINE.contain(dev.schedsim.engine.event.EventQueue.class));
        assertFalse(ENGINE.stream().anyMatch(c -> c.getSimpleName().endsWith("Tests")),
                "test classes must not be imported");
        assertTrue(ENGINE.stream().anyMatch(c -> c.getName().equals("dev.schedsim.engine.core.Simulation")));
    }

    @Test
    void theServiceUsesOnlyTheEnginesEntryAndSpec() {
        ONLY_THE_ENTRY.check(SERVICE);
    }

    @Test
    void theFairClassSeesBandwidthOnlyThroughItsInterface() {
        FAIR_DOES_NOT_IMPORT_BANDWIDTH.check(ENGINE);
    }

    @Test
    void sharedEngineStateHasOneWriter() {
        for (ArchRule rule : OWNERS) {
            rule.check(ENGINE);
        }
    }

    /** A service class that reaches into the engine, to show the boundary rule can fail. */
    static final class Reacher {
        int cpus(dev.schedsim.engine.spec.TopologySpec spec) {
            return new dev.schedsim.engine.topology.Topology(spec).cpuCount();
        }
    }

    /** A class that writes a field it does not own, to show the owner rules can fail. */
    static final class Writer {
        void clear(dev.schedsim.engine.sched.Cpu cpu) {
            cpu.curr = null;
        }
    }

    @Test
    void theBoundaryAndOwnerRulesCatchOffenders() {
        JavaClasses offenders = new ClassFileImporter().importClasses(Reacher.class, Writer.class);
        assertTrue(ONLY_THE_ENTRY.evaluate(offenders).hasViolation(), "Reacher builds an engine Topology");
        assertTrue(OWNERS[1].evaluate(offenders).hasViolation(), "Writer sets Cpu.curr");
    }

    @Test
    void engineDoesNotDependOnSpringJakartaOrJdbc() {
        NO_FRAMEWORKS.check(ENGINE);
    }

    @Test
    void engineDoesNotReadTheWallClockOrAnUnseededRandom() {
        NO_WALL_CLOCK.check(ENGINE);
    }

    /** A class that breaks every rule, to show the rules can fail. */
    static final class Offender {
        long clock() {
            return System.nanoTime() + System.currentTimeMillis() + (long) Math.random()
                    + java.time.Instant.now().toEpochMilli() + java.time.Clock.systemUTC().millis();
        }
    }

    @Test
    void theWallClockRuleCatchesEachForbiddenCall() {
        JavaClasses offender = new ClassFileImporter().importClasses(Offender.class);
        ArchRule rule = noClasses().should().callMethodWhere(WALL_CLOCK_OR_UNSEEDED_RANDOM);
        EvaluationResult result = rule.evaluate(offender);
        assertTrue(result.hasViolation());
        String report = String.join("\n", result.getFailureReport().getDetails());
        for (String call : new String[] {"System.nanoTime()", "System.currentTimeMillis()", "Math.random()",
            "Instant.now()", "Clock.systemUTC()"}) {
            assertTrue(report.contains(call), call + " not reported in:\n" + report);
        }
    }
}
