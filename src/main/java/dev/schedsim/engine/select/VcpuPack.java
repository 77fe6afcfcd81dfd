package dev.schedsim.engine.select;

import dev.schedsim.engine.fair.LoadTracking;
import dev.schedsim.engine.sched.Cpu;
import dev.schedsim.engine.sched.Task;

/**
 * VCPU_PACK: the vCPU packing at the top of select_task_rq_fair() in the validation machine's guest kernel
 * (6.18.44-fc, boot parameter sched_vcpu_pack=15, which sets all four of its modes; three are modelled). It is not
 * in mainline and its source is not published; this is what the machine code of that kernel does (read through
 * BPF from its text, 2026-12-01, docs/latency-validation.md "The validation kernel packs wakeups"). A guest wants
 * its idle vCPUs to stay halted, so a woken task goes to a busy CPU with room before select_idle_sibling() looks
 * for an idle one:
 * <ol>
 * <li>woken from an idle CPU's interrupt (the waker is the idle task) with nothing runnable there: that CPU;</li>
 * <li>a sync wakeup: the waker's CPU if it has room;</li>
 * <li>the previous CPU if it is not idle and has room, else the waker's CPU if it has room, else the first busy
 * allowed CPU with room;</li>
 * </ol>
 * otherwise the mainline path. (The fourth mode, the same for fork and exec on the parent's CPU, is not modelled:
 * the model's tasks are not forked.) Tasks allowed on one CPU only are left to the mainline path.
 */
final class VcpuPack {
    /** vcpu_pack_room()'s utilisation bound: (cpu_util + the wakee's) · 100 &lt; capacity · 70. */
    private static final int ROOM_PCT = 70;
    private static final long CAPACITY = 1024;

    private final Cpu[] cpus;
    private final LoadTracking pelt;

    VcpuPack(Cpu[] cpus, LoadTracking pelt) {
        this.cpus = cpus;
        this.pelt = pelt;
    }

    /** The CPU packing chooses for p's wakeup from {@code thisCpu} ({@code waker} null: the idle task), or −1. */
    int selectPacked(Task p, int prev, int thisCpu, Task waker, boolean sync) {
        if (p.oneCpu) {
            return -1;
        }
        Cpu here = cpus[thisCpu];
        if (waker == null && here.nrRunning == 0 && p.allowedOn(thisCpu)) {
            return thisCpu;
        }
        if (sync && vcpuPackRoom(p, thisCpu)) {
            return thisCpu;
        }
        if (!cpus[prev].idle() && vcpuPackRoom(p, prev)) {
            return prev;
        }
        if (vcpuPackRoom(p, thisCpu)) {
            return thisCpu;
        }
        for (int c = 0; c < cpus.length; c++) {
            if (!cpus[c].idle() && vcpuPackRoom(p, c)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * vcpu_pack_room(): p may run on cpu, every task there is a fair one, at most one other runnable (not delayed)
     * task, and the CPU's utilisation (plus p's if p is not already counted there) under 70 % of its capacity.
     * (The model's PELT has no util_est: cpu_util() and task_util_est() are the util averages.)
     */
    private boolean vcpuPackRoom(Task p, int cpu) {
        if (!p.allowedOn(cpu)) {
            return false;
        }
        Cpu c = cpus[cpu];
        int self = p.se.onRq && p.cpu == cpu ? 1 : 0;
        if (c.nrRunning - c.nrDelayed > self + 1) {
            return false;
        }
        long util = Math.min(pelt.cpuUtil[cpu], CAPACITY);
        if (cpu != p.cpu) {
            util += p.pelt.utilAvg();
        }
        return util * 100 < CAPACITY * ROOM_PCT;
    }
}
