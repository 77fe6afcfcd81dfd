package dev.schedsim.engine.core;

import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/**
 * A wakeup onto another CPU that is idle (try_to_wake_up() → ttwu_queue_wakelist(), kernel/sched/core.c): the
 * waker queues the task on the target's wake list and sends it an IPI, since an idle CPU that does not poll — the
 * validation guest's haltpoll idle with guest_halt_poll_ns=0 halts the vCPU — learns of it only from the interrupt;
 * the target runs sched_ttwu_pending() when it arrives. The target starts leaving its idle state
 * {@link dev.schedsim.engine.spec.HardwareModel}'s {@code ipiDeliveryNs} after the wakeup (on a virtual machine the
 * host wakes the halted vCPU), and the woken task pays {@code ipiWakeNs} of CPU when it switches in (the send and
 * the target's side: on a virtual machine exits to the host; a pair waking each other across the CPUs measures
 * their sum, charged here to the woken task). Both 0 by default: the idle exit alone.
 *
 * <p>0 is also what bare metal with a polling idle costs, as the Sapphire Rapids preset (seed 002) has it: intel_idle's
 * C1 and C1E are MWAIT states, and mwait_idle_with_hints() (arch/x86/include/asm/mwait.h) arms MONITOR on the idle
 * task's thread flags after current_set_polling_and_test(), so send_call_function_single_ipi() (kernel/sched/core.c)
 * finds set_nr_if_polling() true and sends no IPI (trace_sched_wake_idle_without_ipi()): the waker's write of that
 * line ends the MWAIT, and the target pays its C1 exit (1 µs, intel_idle.c's spr_cstates, the default
 * shallowIdleExitNs). The lines such a wakeup and its message move are the workload's
 * (WorkloadSpec.RequestResponse#messageLines).
 */
final class WakeIpi {
    private final long deliveryNs;

    WakeIpi(long deliveryNs) {
        this.deliveryNs = deliveryNs;
    }

    /** A wakeup from {@code wakerCpu} has put p on {@code target}: an IPI if target is another, idle CPU. */
    void ttwuQueueWakelist(Task p, int wakerCpu, Cpu target) {
        p.ipiWake = false;
        if (target.id == wakerCpu || target.busy || target.curr != null) {
            return;
        }
        p.ipiWake = true;
        // (a second wakeup before the target left idle finds its IPI pending)
        target.ipiDelayNs = Math.max(target.ipiDelayNs, deliveryNs);
    }
}
