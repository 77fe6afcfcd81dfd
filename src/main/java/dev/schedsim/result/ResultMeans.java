package dev.schedsim.result;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The element-wise mean of a variant's runs: each number the mean of the runs' (rounded) values, null when any
 * run has none; a text from the first run, null when any run has none; lists element by element.
 */
final class ResultMeans {
    private ResultMeans() {
    }

    static ResultDocument.Run mean(List<ResultDocument.Run> runs) {
        if (runs.size() == 1) {
            return runs.get(0);
        }
        return new ResultDocument.Run(0, num(runs, ResultDocument.Run::simulatedUs),
                num(runs, ResultDocument.Run::events),
                list(runs, ResultDocument.Run::cgroups, ResultMeans::cgroup),
                list(runs, ResultDocument.Run::workloads, ResultMeans::workload),
                object(runs, ResultDocument.Run::cpus, ResultMeans::cpus),
                object(runs, ResultDocument.Run::scheduler, ResultMeans::scheduler));
    }

    private static ResultDocument.Cgroup cgroup(List<ResultDocument.Cgroup> c) {
        return new ResultDocument.Cgroup(text(c, ResultDocument.Cgroup::path), object(c,
                ResultDocument.Cgroup::cpuStat, s -> new ResultDocument.CpuStat(
                        num(s, ResultDocument.CpuStat::usageUsec), num(s, ResultDocument.CpuStat::nrPeriods),
                        num(s, ResultDocument.CpuStat::nrThrottled), num(s, ResultDocument.CpuStat::throttledUsec),
                        num(s, ResultDocument.CpuStat::nrBursts), num(s, ResultDocument.CpuStat::burstUsec))));
    }

    private static ResultDocument.Workload workload(List<ResultDocument.Workload> w) {
        return new ResultDocument.Workload(text(w, ResultDocument.Workload::name),
                num(w, ResultDocument.Workload::cpuUsec), num(w, ResultDocument.Workload::completionUs),
                num(w, ResultDocument.Workload::throughputPerSec),
                object(w, ResultDocument.Workload::wakeupLatencyUs, ResultMeans::latency),
                w.get(0).requestLatencyUs() == null ? null
                        : object(w, ResultDocument.Workload::requestLatencyUs, ResultMeans::latency),
                num(w, ResultDocument.Workload::contextSwitches), num(w, ResultDocument.Workload::migrations),
                num(w, ResultDocument.Workload::wakeups));
    }

    private static ResultDocument.Latency latency(List<ResultDocument.Latency> l) {
        return new ResultDocument.Latency(num(l, ResultDocument.Latency::p50), num(l, ResultDocument.Latency::p90),
                num(l, ResultDocument.Latency::p99), num(l, ResultDocument.Latency::p999),
                num(l, ResultDocument.Latency::max), num(l, ResultDocument.Latency::count),
                num(l, ResultDocument.Latency::over100usPct));
    }

    private static ResultDocument.Cpus cpus(List<ResultDocument.Cpus> c) {
        return new ResultDocument.Cpus(num(c, ResultDocument.Cpus::busyPct), num(c, ResultDocument.Cpus::idlePct),
                num(c, ResultDocument.Cpus::overheadPct), num(c, ResultDocument.Cpus::avgPowerWatts),
                numbers(c, ResultDocument.Cpus::perCpuBusyPct));
    }

    private static ResultDocument.Scheduler scheduler(List<ResultDocument.Scheduler> s) {
        return new ResultDocument.Scheduler(num(s, ResultDocument.Scheduler::contextSwitches),
                num(s, ResultDocument.Scheduler::migrations), num(s, ResultDocument.Scheduler::wakeups),
                num(s, ResultDocument.Scheduler::loadBalances), num(s, ResultDocument.Scheduler::newidleBalances),
                num(s, ResultDocument.Scheduler::overheadPct), num(s, ResultDocument.Scheduler::tasksMoved),
                num(s, ResultDocument.Scheduler::activeBalances), num(s, ResultDocument.Scheduler::idleScans),
                num(s, ResultDocument.Scheduler::cpusScanned), num(s, ResultDocument.Scheduler::serializeAttempts),
                num(s, ResultDocument.Scheduler::serializePct),
                list(s, ResultDocument.Scheduler::newidleCostUs, c -> new ResultDocument.LevelCost(
                        text(c, ResultDocument.LevelCost::level), num(c, ResultDocument.LevelCost::min),
                        num(c, ResultDocument.LevelCost::avg), num(c, ResultDocument.LevelCost::max),
                        num(c, ResultDocument.LevelCost::samples))),
                num(s, ResultDocument.Scheduler::wakeupMigrations), num(s, ResultDocument.Scheduler::newidlePulls));
    }

    /** The mean of a number over the runs (in run order), rounded; null when any run has none. */
    private static <T> Double num(List<T> xs, Function<T, Double> f) {
        double sum = 0;
        for (T x : xs) {
            Double d = f.apply(x);
            if (d == null) {
                return null;
            }
            sum += d;
        }
        return Num.round(sum / xs.size());
    }

    private static <T> String text(List<T> xs, Function<T, String> f) {
        for (T x : xs) {
            if (f.apply(x) == null) {
                return null;
            }
        }
        return f.apply(xs.get(0));
    }

    private static <T, U> U object(List<T> xs, Function<T, U> f, Function<List<U>, U> mean) {
        List<U> parts = new ArrayList<>(xs.size());
        for (T x : xs) {
            parts.add(f.apply(x));
        }
        return mean.apply(parts);
    }

    /** Element by element over the first run's list. */
    private static <T, U> List<U> list(List<T> xs, Function<T, List<U>> f, Function<List<U>, U> mean) {
        List<U> first = f.apply(xs.get(0));
        List<U> out = new ArrayList<>(first.size());
        for (int i = 0; i < first.size(); i++) {
            List<U> column = new ArrayList<>(xs.size());
            for (T x : xs) {
                column.add(f.apply(x).get(i));
            }
            out.add(mean.apply(column));
        }
        return out;
    }

    private static <T> List<Double> numbers(List<T> xs, Function<T, List<Double>> f) {
        List<Double> first = f.apply(xs.get(0));
        List<Double> out = new ArrayList<>(first.size());
        for (int i = 0; i < first.size(); i++) {
            int k = i;
            out.add(num(xs, x -> f.apply(x).get(k)));
        }
        return out;
    }
}
