package dev.schedsim.engine.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * rd->overloaded as 6.18 keeps it (kernel/sched/sched.h, kernel/sched/fair.c): add_nr_running() raises it when a
 * CPU reaches two tasks, sub_nr_running() leaves it alone, and only update_sd_lb_stats() at the root domain writes
 * it again, with what that balance saw. Between the two, sched_balance_newidle()'s gate lets balances through that
 * find nothing — they lower NI_RANDOM's success ratio.
 */
class RootDomainTests {

    @Test
    void theFlagOutlivesTheOverloadUntilABalanceAtTheRootLooks() {
        RootDomain rd = new RootDomain();
        assertFalse(rd.overloaded(), "init_rootdomain(): clear");
        rd.nrRunningChanged(1, 2);
        assertTrue(rd.overloaded(), "add_nr_running() to two tasks: set");
        rd.nrRunningChanged(2, 1);
        assertTrue(rd.overloaded(), "sub_nr_running() does not clear it");
        rd.setRdOverloaded(false);
        assertFalse(rd.overloaded(), "a balance at the root that saw no CPU with two tasks clears it");
        rd.nrRunningChanged(2, 3);
        assertFalse(rd.overloaded(), "only the step to two raises it");
        rd.setRdOverloaded(true);
        assertTrue(rd.overloaded(), "a balance at the root that saw one raises it");
    }
}
