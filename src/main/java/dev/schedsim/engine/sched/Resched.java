package dev.schedsim.engine.sched;

/**
 * resched_curr(): marks a CPU TIF_NEED_RESCHED and queues it for {@code schedule()}, which the event loop runs
 * for every marked CPU after each event, in the order they were marked (the model's return to user / from
 * interrupt).
 */
public final class Resched {
    private final Cpu[] cpus;
    private final int[] ring;
    private int head;
    private int size;

    public Resched(Cpu[] cpus) {
        this.cpus = cpus;
        this.ring = new int[cpus.length];
    }

    /** resched_curr(). */
    public void reschedCurr(Cpu cpu) {
        if (cpu.needResched) {
            return;
        }
        cpu.needResched = true;
        int i = head + size++;
        ring[i < ring.length ? i : i - ring.length] = cpu.id; // (no modulo: an integer division per call)
    }

    /** test_tsk_need_resched(rq->curr): whether the CPU is marked. */
    public boolean marked(Cpu cpu) {
        return cpu.needResched;
    }

    /** The next marked CPU, its mark cleared; null when none is. */
    public Cpu poll() {
        if (size == 0) {
            return null;
        }
        int c = ring[head];
        head = head + 1 < ring.length ? head + 1 : 0;
        size--;
        Cpu cpu = cpus[c];
        cpu.needResched = false;
        return cpu;
    }
}
