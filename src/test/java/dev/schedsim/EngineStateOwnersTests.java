package dev.schedsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Who writes the state of {@code Task}, {@code Cpu}, {@code CfsRq} and {@code Entity} (docs/model.md, "Who writes
 * the engine's state"). Their fields are public where other mechanisms read them on the hot path, package-private
 * where only {@code engine.sched} reads them; what is held here is the writing: each group of fields has its
 * owner — one class, or one mechanism's package — and no other class sets a field of the group (the holder itself
 * may: initial values, its own methods). Fields that several mechanisms write are listed in {@link #SHARED}, each
 * with its writers, so that the list says what a line may touch. Every mutable field of the four that is not
 * private is in exactly one group or in that list: a new field fails
 * {@link #everyMutableFieldHasAGroupOrIsListedShared()} until it is placed.
 */
class EngineStateOwnersTests {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedsim.engine");

    private static final String E = "dev.schedsim.engine.";
    static final String TASK = E + "sched.Task";
    static final String CPU = E + "sched.Cpu";
    static final String CFS_RQ = E + "sched.CfsRq";
    static final String ENTITY = E + "sched.Entity";

    /**
     * Fields of one holder and the classes or packages ({@code "dev.schedsim.engine.fair.."}) that may set them;
     * {@code kernel} says what the kernel calls them or who writes them there.
     */
    record Group(String holder, String kernel, List<String> owners, List<String> fields) {
        boolean singleWriter() {
            return owners.size() == 1 && !owners.get(0).endsWith("..");
        }
    }

    static Group group(String holder, String kernel, List<String> owners, String... fields) {
        return new Group(holder, kernel, owners, List.of(fields));
    }

    static final List<Group> GROUPS = List.of(
        // struct rq (sched.Cpu)
        group(CPU, "rq->curr, rq->nr_running, rq->cfs_tasks", List.of(E + "sched.RunQueues"),
                "curr", "nrRunning", "lruHead", "lruTail"),
        group(CPU, "h_nr_queued − h_nr_runnable (DELAY_DEQUEUE)", List.of(E + "fair.FairQueue"), "nrDelayed"),
        group(CPU, "__schedule(): the switch and the CPU's idle state", List.of(E + "core.Scheduler"),
                "busy", "idleExitDone", "idleExitNs", "idleSince", "lastRan", "lastBusyStart", "haltEndedAt"),
        group(CPU, "TIF_NEED_RESCHED (resched_curr())", List.of(E + "sched.Resched"), "needResched"),
        group(CPU, "sched_skew_tick's offset (tick_setup_sched_timer())", List.of(E + "core.SimulationSetup"),
                "tickSkewNs"),
        group(CPU, "the host's preemption of the vCPU (model)", List.of(E + "core.HostStalls"),
                "stolenUntil", "reschedAfterStall"),
        group(CPU, "update_rq_clock_task()", List.of(E + "sched.RqClock"),
                "nonTaskTaken", "nonTaskPending", "clockWall"),
        group(CPU, "work and overhead accounting (model)", List.of(E + "machine.Execution"),
                "overheadDebt", "overheadNs", "workSince"),
        group(CPU, "curr's se->exec_start (update_curr(), set_next_entity())", List.of(E + "fair.UpdateCurr"),
                "execClock"),
        group(CPU, "SMT throughput (model)", List.of(E + "machine.Smt"), "rate"),
        group(CPU, "rq->leaf_cfs_rq_list (list_add_leaf_cfs_rq(), list_del_leaf_cfs_rq())", List.of(),
                "leaf", "nLeaf"),
        group(CPU, "cache footprint (model)", List.of(E + "machine.CacheModel"), "kbTouched"),
        group(CPU, "SIS_CACHE's rq->cache_hot_timeout", List.of(E + "fair.SisCache"), "cacheHotTimeout"),
        group(CPU, "rq->avg_idle (ttwu_do_activate())", List.of(E + "core.Wakeup"), "avgIdle"),
        group(CPU, "rq->max_idle_balance_cost", List.of(E + "balance.."), "maxIdleBalanceCost"),
        group(CPU, "the next tick, a wakeup IPI's delay, the busy time (core.c)", List.of(E + "core.."),
                "nextTick", "ipiDelayNs", "busyNs"),

        // struct task_struct (sched.Task)
        group(TASK, "the program's request: its run or sleep (SimThread)", List.of(),
                "clockRun", "clockRunNs", "infinite", "spinNs", "sleepNs", "sleepSlackNs"),
        group(TASK, "the run segment's progress", List.of(E + "machine.Execution"),
                "remainingWork", "spinUntil", "clockRunUntil", "workDoneNs"),
        group(TASK, "the sleep's hrtimer (hrtimer_start_range_ns())", List.of(E + "core.HrtimerBases"),
                "timerSoftNs", "timerHardNs", "timerIndex", "timerCpu", "timerFirst"),
        group(TASK, "rq->cfs_tasks links", List.of(E + "sched.RunQueues"), "lruPrev", "lruNext", "onLru"),
        group(TASK, "wake_wide()'s record_wakee()", List.of(E + "select.SelectTaskRq"),
                "lastWakee", "wakeeFlips", "wakeeFlipDecayTs"),
        group(TASK, "SIS_CACHE's avg_hot_dur, last_dequeue_cpu", List.of(E + "fair.SisCache"),
                "avgHotDur", "lastDequeueCpu"),
        group(TASK, "p->recent_used_cpu (select_idle_sibling())", List.of(E + "select.SelectIdleSibling"),
                "recentUsedCpu"),
        group(TASK, "cache model (model)", List.of(E + "machine.CacheModel"), "cacheCpu", "cacheMark"),
        group(TASK, "se.sum_exec_runtime's CPU clock (update_curr())", List.of(E + "fair.UpdateCurr"), "cpuNs"),
        group(TASK, "its wakeups counted (ttwu_stat())", List.of(E + "core.Wakeup"), "wakeups"),
        group(TASK, "the CPU a woken message was written on (model)", List.of(E + "core.Wakeup"), "wakeDataCpu"),
        group(TASK, "a timed sleep (model)", List.of(E + "core.Lifecycle"), "timedSleep"),
        group(TASK, "a wake kept for its next block (model; its own next() consumes it)", List.of(E + "core.Wakeup"),
                "pendingWakes"),
        group(TASK, "wakeup, migration and switch bookkeeping (core.c)", List.of(E + "core.."),
                "migrations", "wakeTime", "ipiWake", "irqWake", "wakeAskedCpu"),
        group(TASK, "se.exec_start as task_hot() reads it: set as the task stops running, reset by "
                + "migrate_task_rq_fair()", List.of(E + "core..", E + "fair.FairQueue"), "lastRanNs"),

        // struct cfs_rq (sched.CfsRq)
        group(CFS_RQ, "the queue itself: array or tree, curr", List.of(), "nr", "queue", "timeline", "treeMode",
                "curr", "limbo"),
        group(CFS_RQ, "cfs_rq->h_nr_queued (enqueue/dequeue_entity())", List.of(E + "fair.FairQueue"),
                "hNrRunning", "lastActiveNs"),
        group(CFS_RQ, "cfs_rq->load, avg_vruntime's sums", List.of(E + "fair.."), "load", "sumWv"),
        group(CFS_RQ, "cfs_rq->on_list (list_add_leaf_cfs_rq(), list_del_leaf_cfs_rq())", List.of(E + "sched.Cpu"),
                "onLeafList"),
        group(CFS_RQ, "cfs_rq->min_vruntime (update_min_vruntime())", List.of(E + "fair.Pick"), "minVruntime"),
        group(CFS_RQ, "the group entity (init_tg_cfs_entry())", List.of(E + "sched.TaskGroup"), "se"),
        group(CFS_RQ, "throttle_cfs_rq(), unthrottle_cfs_rq(), the limbo lists",
                List.of(E + "bandwidth.Throttle"), "throttled", "throttleCount", "throttledClock", "nLimbo"),
        group(CFS_RQ, "cfs_rq->runtime_enabled (tg_set_cfs_bandwidth())", List.of(E + "bandwidth.BandwidthPool"),
                "runtimeEnabled", "expiresSeq"),
        group(CFS_RQ, "cfs_rq->runtime_remaining and its expiry", List.of(E + "bandwidth.."),
                "runtimeRemaining", "runtimeExpires"),
        group(CFS_RQ, "cfs_b->throttled_cfs_rq", List.of(E + "bandwidth.CfsBandwidth"), "onThrottledList"),

        // struct sched_entity (sched.Entity)
        group(ENTITY, "on the cfs_rq: __enqueue_entity(), DELAY_DEQUEUE", List.of(E + "fair.FairQueue"),
                "onRq", "delayed", "fresh"),
        group(ENTITY, "its place in the queue's array or tree", List.of(E + "sched.CfsRq", E + "sched.Timeline"),
                "index", "seq", "inTree", "tl", "tr", "tprio", "tmin"),
        group(ENTITY, "se->sum_exec_runtime (update_curr())", List.of(E + "fair.UpdateCurr"), "sumExec"),
        group(ENTITY, "se->prev_sum_exec_runtime (set_next_entity())", List.of(E + "fair.FairPick"),
                "prevSumExec"),
        group(ENTITY, "vruntime, deadline, vlag, vprot, the hierarchy (fair.c)",
                List.of(E + "fair..", E + "sched.TaskGroup"),
                "vruntime", "deadline", "vlag", "vprot", "parent", "cfsRq"),
        group(ENTITY, "se->slice (sched_slice at fork, the base slice)", List.of(E + "core.SimulationSetup"), "slice"),
        group(ENTITY, "se->load.weight (reweight_entity(); set at creation)", List.of(E + "fair.GroupShares"),
                "weight"));

    /** Fields written by more than one mechanism: no owner is enforced; their writers, as they are today. */
    static final Map<String, String> SHARED = Map.ofEntries(
        Map.entry(CPU + ".idleStamp", "core.Scheduler, core.Wakeup, balance.NewidleBalance"),
        Map.entry(CPU + ".wakeAvgIdle", "core.Wakeup, select.SelectIdleSibling"),
        Map.entry(CPU + ".wakeStamp", "core.Wakeup, select.SelectIdleSibling"),
        Map.entry(TASK + ".cpu", "core.Simulation, fair.FairQueue"),
        Map.entry(TASK + ".contextSwitches", "core.ContextSwitch, fair.FairPick"),
        Map.entry(TASK + ".lastDequeueTime", "core.Migration, fair.SisCache"));

    /** A class is one of the owners: its top-level class is named, or it lies in a named package ("x.y.."). */
    static DescribedPredicate<JavaClass> ownerOrHolder(Group g) {
        return new DescribedPredicate<>("an owner of " + g.fields() + " or " + g.holder()) {
            @Override
            public boolean test(JavaClass c) {
                String top = c.getName().contains("$") ? c.getName().substring(0, c.getName().indexOf('$'))
                        : c.getName();
                return top.equals(g.holder()) || g.owners().stream().anyMatch(o -> o.endsWith("..")
                        ? c.getPackageName().equals(o.substring(0, o.length() - 2))
                        || c.getPackageName().startsWith(o.substring(0, o.length() - 1))
                        : top.equals(o));
            }
        };
    }

    static List<ArchRule> rules(Group g) {
        List<ArchRule> rules = new ArrayList<>();
        for (String field : g.fields()) {
            rules.add(noClasses().that(DescribedPredicate.not(ownerOrHolder(g))).should().setField(g.holder(), field)
                    .because(g.holder().substring(g.holder().lastIndexOf('.') + 1) + "." + field + " ("
                            + g.kernel() + ") is written by " + (g.owners().isEmpty() ? "its holder only"
                            : String.join(", ", g.owners()))));
        }
        return rules;
    }

    @Test
    void eachGroupIsWrittenByItsOwnersOnly() {
        for (Group g : GROUPS) {
            for (ArchRule rule : rules(g)) {
                rule.check(ENGINE);
            }
        }
    }

    @Test
    void everyMutableFieldHasAGroupOrIsListedShared() {
        Set<String> mutable = new TreeSet<>();
        for (String holder : List.of(TASK, CPU, CFS_RQ, ENTITY)) {
            for (JavaField f : ENGINE.get(holder).getFields()) {
                if (!f.getModifiers().contains(JavaModifier.PRIVATE) && !f.getModifiers().contains(JavaModifier.FINAL)
                        && !f.getModifiers().contains(JavaModifier.STATIC)) {
                    mutable.add(holder + "." + f.getName());
                }
            }
        }
        List<String> placed = new ArrayList<>(SHARED.keySet());
        GROUPS.forEach(g -> g.fields().forEach(f -> placed.add(g.holder() + "." + f)));
        assertThat(placed).as("each field in one place only").doesNotHaveDuplicates();
        assertThat(new TreeSet<>(placed)).isEqualTo(mutable);
    }

    /** The shared list says who writes each field today: a field down to one mechanism belongs in a group. */
    @Test
    void sharedFieldsHaveTheWritersTheListSays() {
        Map<String, String> found = new TreeMap<>();
        for (String key : SHARED.keySet()) {
            String holder = key.substring(0, key.lastIndexOf('.'));
            JavaField field = ENGINE.get(holder).getField(key.substring(key.lastIndexOf('.') + 1));
            Set<String> writers = new TreeSet<>();
            for (JavaFieldAccess a : field.getAccessesToSelf()) {
                String origin = a.getOriginOwner().getName();
                String top = origin.contains("$") ? origin.substring(0, origin.indexOf('$')) : origin;
                if (a.getAccessType() == JavaFieldAccess.AccessType.SET && !top.equals(holder)) {
                    writers.add(top.substring(E.length()));
                }
            }
            found.put(key, String.join(", ", writers));
        }
        Map<String, String> listed = new TreeMap<>();
        SHARED.forEach((k, v) -> listed.put(k, String.join(", ", new TreeSet<>(List.of(v.split(", "))))));
        assertThat(found).isEqualTo(listed);
    }

    /** A class outside the bandwidth mechanism that sets a cfs_rq's remaining runtime, to show the rules can fail. */
    static final class Refill {
        void refill(dev.schedsim.engine.sched.CfsRq q) {
            q.runtimeRemaining = 1;
        }
    }

    @Test
    void theRulesCatchAWriterOutsideItsGroup() {
        JavaClasses offender = new ClassFileImporter().importClasses(Refill.class);
        Group remaining = GROUPS.stream().filter(g -> g.fields().contains("runtimeRemaining")).findFirst()
                .orElseThrow();
        assertThat(rules(remaining).get(0).evaluate(offender).hasViolation()).isTrue();
        // and the holder's own writes are allowed: Cpu.addLeaf sets a cfs_rq's onLeafList and its own nLeaf
        Group leaf = GROUPS.stream().filter(g -> g.fields().contains("nLeaf")).findFirst().orElseThrow();
        assertThat(ownerOrHolder(leaf).test(ENGINE.get(CPU))).isTrue();
    }
}
