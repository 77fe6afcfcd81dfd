#!/usr/bin/env python3
"""Derives the model's host costs (a data set's "hardware" block) from a real-kernel machine block.

Reads the "machineNoiseRuns" of a file src/test/resources/validation/latency-cases-*.json, written by
scripts/measure-latency.py's machine_noise(), and applies the rules that the earlier derivations applied by hand and
wrote down in their files' hardware.derivation and hardware.noiseWhy (latency-cases-2026-12-06e.json and
-2026-12-07f.json; before them 2026-12-02, -02b, -06c and -06d). Each figure is the median over the block's
measurements (three), busyWake's over all its runs (4 a measurement), as 2026-12-07f took them. In µs:

busy_wake (docs/latency-validation.md, "Timed sleeps and pipe sleeps", "A timer's interrupt on a busy CPU", "A sleep's
  reprogram", "What a woken task is charged before it runs"): a 50/950 µs sleeper preempting a busy thread costs
  C a cycle; less its 50 of work, the model's 2 µs switch and the interrupts on those 52 µs (irqgaps' median share
  of a busy CPU, as 06e and 07f took them), the rest is its timed sleep; less wakeKernelNs it is the timer, and less
  FIRST_TIMER_SHARE x hrtimerReprogramNs it is hrtimerSleepNs. hrtimerReprogramNs is src/test/c/rearm.c's figure,
  measured apart: (a call's µs - behind the tick's µs) / 0.75 (the re-armed timer is first about three calls in
  four), from --rearm-us, else this file's hardware block, else no split (hrtimerSleepNs is then the whole timer).
  hrtimerIrqNs: what the busy thread loses per wakeup more than the control busy thread on the other CPU, less the
  2.1 µs the model charges it (its switch back in). wakeClockSkipNs: the sleeper's sched_wakeup-to-switch
  (sleeperWakeupToSwitchUs), where the block has it.
pipe_wake ("Timed sleeps and pipe sleeps", "A second host"): a pinned request-response pair with 10 µs a side costs
  T of CPU a transaction, two sleeps and wakeups: T / 2 - 10 each, of which the 2 µs switch and the interrupts on
  its 12 µs (the same share); the rest is wakeKernelNs.
idle_exits ("What a woken task is charged before it runs", 07f's CPU rule): CPU a cycle of a lone 50 µs thread out
  of idle after 0.2/0.9 ms (mean of the two) and after 3/10 ms, less busyWake's cycle (the same thread where the CPU
  never idles): shallowIdleExitNs and deepIdleExitNs, with idleExitCpuShare 1.0. The return-latency rule of 2026-12-02
  to 06e (return latency out of idle less a busy CPU's) is printed beside it, not used.
crossWake ("A wakeup's IPI to an idle CPU"): ipiWakeNs = (CPU - the model's CPU without IPI) / 2 and ipiDeliveryNs =
  (wall - the model's wall) / 2 - ipiWakeNs need a model run with the other costs: left out, the measured figures
  printed.
interrupts (noise, "Issue 32: a third host..."; 02b's and 06e's noiseWhy): hostStalls' gaps that no switch explains
  (notSwitched), 5-200 µs, pooled over the CPU-runs; a lognormal truncated to 5-200 µs fitted to the bins' shares by
  least squares (reproduces 06e's 18.8 µs / 0.54 and 02b's 20.4 / 0.49); irqPerSec such that they take what
  busyWake's control thread loses (its busyLostMsWithout over its 3 s, median of all runs).
host_stalls (same sources): the same gaps over 200 µs, per second of a CPU-run (the mean over the CPU-runs):
  0.2-1 ms for the short class, over 2 ms for the long, with 06e's lengths (350 µs and 3 ms, sigma 0.4, not derived
  again). wakeDelay (a halted vCPU's wait for its host, 06e's rule): idleExit's runs whose maximum return latency is
  over 1 ms, one wait each, per wakeup of all idleExit runs; their median; sigma 0.35 (02b's). timerJitterNs 4 µs
  (validation-2c's).
background (same sources): idleMachine's /proc counts: kdamond and tokio-rt-worker (the runtime worker) each at its
  median rate and run length, the rest ("daemons", 4 threads) at the median total less those two, its median run
  from its mean with sigma 0.9 (mean = median x exp(sigma^2 / 2)).
after_halt ("A vCPU that halted loses more"): where the block has runGaps, irqFactor is the median over all runs and
  shapes with runUs <= 5000 of (periodic's 2-200 µs gap time / its runMs) / (busy's same), to 0.05; windowNs 15 ms.

Costs are rounded to 0.1 µs, and a cost that takes another off uses it as rounded (the model's sum of wakeKernelNs,
hrtimerSleepNs and 0.742 x hrtimerReprogramNs is the measured sleep); a cost the noise puts below 0 is 0. The daemons'
rate is rounded to 5 a second, the threads' run lengths to two significant figures, irqPerSec to three.

Where the hand derivations part from these rules (checked against them): 06e's exits are the return-latency rule's;
06e took the pipe's interrupts at validation-2c's 1.05 %; 07f's host stalls are the median over the CPU-runs of all
gaps over 200 µs, the preempted ones too; 07f's interrupt fit (21.2 µs, sigma 0.81) is not this least-squares fit, and
its tokio-rt-worker is the first measurement's; 07f took wakeDelay and afterHalt from other boots, 06e afterHalt.

usage: scripts/derive-host-costs.py FILE [--rearm-us CALL_US BEHIND_TICK_US]
prints the hardware block's fields, its noiseWhy and derivation as JSON (stdout); what it left out on stderr.
"""
import argparse
import json
import math
import sys
from statistics import NormalDist, median

# The model's share of the busyWake sleeper's sleeps whose timer becomes its CPU's first (its 950 µs sleep before the
# next tick, sometimes batched with it): 74.2 %, from the model run of the earlier derivations (2026-12-06c/d/e, 07f)
FIRST_TIMER_SHARE = 0.742
# rearm.c's timer 0.8-1 ms away is its CPU's first about three calls in four
REARM_FIRST_SHARE = 0.75
SLEEPER_WORK_US = 50  # busyWake's sleeper: latbench periodic,1,50,950
SWITCH_US = 2.0  # the model's contextSwitchNs
SWITCH_BACK_US = 2.1  # what the model charges the busy thread per wakeup (its switch back in)
IDLE_EXIT_CPU_SHARE = 1.0  # derived on 2026-12-02, not refitted since
TIMER_JITTER_NS = 4000  # validation-2c's timer lateness
STALLS = (("short", (500, 1000), 350000), ("long", (5000, 10000, -1), 3000000))  # bins; 06e's lengths
STALL_SIGMA = 0.4
WAKE_DELAY_OVER_US, WAKE_DELAY_SIGMA = 1000, 0.35
NAMED_THREADS = (("kdamond", "kdamond", 0.3), ("runtime-worker", "tokio-rt-worker", 0.5))  # name, comm, sigma
DAEMONS_THREADS, DAEMONS_SIGMA = 4, 0.9
AFTER_HALT_MAX_RUN_US, AFTER_HALT_WINDOW_NS = 5000, 15000000


def ns(us, step=100):
    """µs to ns, rounded half up to step ns; never below 0 (a cost the noise puts below zero is 0, as 2026-12-02's
    wakeKernelNs and 06d's ipiDeliveryNs were)."""
    return max(0, int(math.floor(us * 1000 / step + 0.5 + 1e-9)) * step)


def sig(x, digits=2):
    """x rounded to digits significant figures."""
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x))))) if x else 0


def irq_share(runs):
    """irqgaps' share of a busy CPU lost to interrupts, median over all CPU-runs, as a fraction."""
    return median(c["pctOfTime"] for r in runs for c in r["interrupts"]) / 100


def pipe_wake(runs, share):
    tx = median(p["cpuUsPerTransaction"] for r in runs for p in r["pipeWake"] if p["workUs"] == 10)
    each = tx / 2 - 10
    irq = (10 + SWITCH_US) * share
    wake = ns(each - SWITCH_US - irq)
    return {"wakeKernelNs": wake}, (
        "pipeWake: a pinned pair with 10 us a side costs %.2f us a transaction: %.2f per sleep and wakeup, %g of them "
        "the switch and %.2f interrupts (%.2f %% of 12 us), so wakeKernelNs %.1f us"
        % (tx, each, SWITCH_US, irq, 100 * share, wake / 1000))


def busy_wake(runs, share, wake_ns, reprogram):
    """reprogram: (µs, where from) or None."""
    bw = [x for r in runs for x in r["busyWake"]["runs"]]
    cycle = median(x["sleeperCpuUsPerCycle"] for x in bw)
    irq = (SLEEPER_WORK_US + SWITCH_US) * share
    sleep = cycle - SLEEPER_WORK_US - SWITCH_US - irq
    timer = sleep - wake_ns / 1000
    text = ("busyWake: a 50/950 us sleeper preempting a busy thread costs %.2f us a cycle (median of %d runs): 50 of "
            "work, %g the context switch, %.2f interrupts (%.2f %% of a busy CPU, irqgaps' median, on its 52 us), so a "
            "timed sleep costs its task %.2f us, of which %.1f any sleep's (wakeKernelNs) and %.2f the timer"
            % (cycle, len(bw), SWITCH_US, irq, 100 * share, sleep, wake_ns / 1000, timer))
    out = {}
    if reprogram:
        out["hrtimerReprogramNs"] = ns(reprogram[0])
        out["hrtimerSleepNs"] = ns(timer - FIRST_TIMER_SHARE * out["hrtimerReprogramNs"] / 1000)
        text += ("; the reprogram (hrtimerReprogramNs %.1f us: %s) comes with the %.1f %% of the sleeps whose timer is "
                 "first in the model, so hrtimerSleepNs is %.2f - %.3f x %.1f = %.1f us"
                 % (out["hrtimerReprogramNs"] / 1000, reprogram[1], 100 * FIRST_TIMER_SHARE, timer, FIRST_TIMER_SHARE,
                    out["hrtimerReprogramNs"] / 1000, out["hrtimerSleepNs"] / 1000))
    else:
        out["hrtimerSleepNs"] = ns(timer)
        text += "; no rearm.c figure, so no reprogram split: hrtimerSleepNs is the timer whole, %.1f us" % (
            out["hrtimerSleepNs"] / 1000)
    lost = sorted(x["lostUsPerWakeup"] for x in bw)
    out["hrtimerIrqNs"] = ns(median(lost) - SWITCH_BACK_US)
    text += ("; the busy thread loses %.2f us per wakeup more than the control on the other CPU (median of %d runs "
             "that spread from %.1f to %.1f), of which the model charges %.1f (its switch back in): hrtimerIrqNs "
             "%.1f us" % (median(lost), len(lost), lost[0], lost[-1], SWITCH_BACK_US, out["hrtimerIrqNs"] / 1000))
    if all("sleeperWakeupToSwitchUs" in x for x in bw):
        w2s = sorted(x["sleeperWakeupToSwitchUs"]["p50"] for x in bw)
        out["wakeClockSkipNs"] = ns(median(w2s))
        text += ("; its wakeup-to-switch is %.1f us (sleeperWakeupToSwitchUs, median of the %d runs' medians, "
                 "%.0f-%.0f): wakeClockSkipNs, which a timed wakeup that does not ask for its CPU does not pay"
                 % (median(w2s), len(w2s), w2s[0], w2s[-1]))
    return out, cycle, text


def idle_exits(runs, cycle):
    bw = [x for r in runs for x in r["busyWake"]["runs"]]
    busy_ret = median(x["sleeperReturnLatencyUs"]["p50"] for x in bw)
    by_sleep = {}
    for r in runs:
        for x in r["idleExit"]:
            by_sleep.setdefault(x["sleepUs"], []).append(x)
    cpu = {s: median(x["cpuUsPerCycle"] for x in xs) for s, xs in by_sleep.items()}
    ret = {s: median(x["returnLatencyUs"]["p50"] for x in xs) for s, xs in by_sleep.items()}
    pairs = ((200, 900), (3000, 10000))
    out = {}
    for key, (a, b) in zip(("shallowIdleExitNs", "deepIdleExitNs"), pairs):
        out[key] = ns((cpu[a] + cpu[b]) / 2 - cycle)
    out["idleExitCpuShare"] = IDLE_EXIT_CPU_SHARE
    lat = [(ret[a] + ret[b]) / 2 - busy_ret for a, b in pairs]
    text = ("idleExit: a lone 50 us thread costs %.2f us a cycle of CPU out of idle after 0.2/0.9 ms (%.2f and %.2f) "
            "and %.2f after 3/10 ms (%.2f and %.2f), against the preempting sleeper's %.2f on a busy CPU, so the exits "
            "are %.1f and %.1f us (idleExitCpuShare %.1f; 2026-12-07f's CPU rule); by the return latency (2026-12-02's "
            "to 06e's rule: a busy CPU's %.2f us, out of idle %.2f/%.2f and %.2f/%.2f) they would be %.1f and %.1f"
            % ((cpu[200] + cpu[900]) / 2, cpu[200], cpu[900], (cpu[3000] + cpu[10000]) / 2, cpu[3000], cpu[10000],
               cycle, out["shallowIdleExitNs"] / 1000, out["deepIdleExitNs"] / 1000, IDLE_EXIT_CPU_SHARE, busy_ret,
               ret[200], ret[900], ret[3000], ret[10000], lat[0], lat[1]))
    if all("wakeupToSwitchUs" in x for xs in by_sleep.values() for x in xs) and \
            all("sleeperWakeupToSwitchUs" in x for x in bw):
        w2s = {s: median(x["wakeupToSwitchUs"]["p50"] for x in xs) for s, xs in by_sleep.items()}
        pre = median(x["sleeperWakeupToSwitchUs"]["p50"] for x in bw)
        text += ("; the charge before the switch-in, wakeupToSwitchUs %.0f/%.0f and %.0f/%.0f us less the preempting "
                 "sleeper's %.1f, is %.1f and %.1f (noted, not modelled)"
                 % (w2s[200], w2s[900], w2s[3000], w2s[10000], pre, (w2s[200] + w2s[900]) / 2 - pre,
                    (w2s[3000] + w2s[10000]) / 2 - pre))
    return out, text


def cross_wake(runs):
    cw = [c for r in runs for c in r["crossWake"] if c["workUs"] == 10]
    return ("crossWake: not derived (ipiWakeNs = (CPU - the model's CPU without IPI) / 2, ipiDeliveryNs = (wall - "
            "the model's wall) / 2 - ipiWakeNs need a model run with these costs and no IPI): a pair pinned across the "
            "CPUs with 10 us a side costs %.1f us a transaction of wall time and %.1f of CPU (medians of %d runs)"
            % (median(c["wallUsPerTransaction"] for c in cw), median(c["cpuUsPerTransaction"] for c in cw), len(cw)))


def fit_lognormal(bins):
    """(median µs, sigma) of the lognormal truncated to the bins' span whose bin shares are nearest the measured ones
    (least squares; a coarse grid, then finer ones around the best)."""
    total = sum(n for _, _, n in bins)
    lo, hi = bins[0][0], bins[-1][1]
    cdf = NormalDist().cdf

    def err(mu, s):
        z = cdf((math.log(hi) - mu) / s) - cdf((math.log(lo) - mu) / s)
        return sum((n / total - (cdf((math.log(b) - mu) / s) - cdf((math.log(a) - mu) / s)) / z) ** 2
                   for a, b, n in bins)
    mu, s, step = math.log(20), 0.8, 0.2
    for _ in range(12):
        mu, s = min(((mu + i * step, s + j * step / 2) for i in range(-5, 6) for j in range(-5, 6)
                     if s + j * step / 2 > 0.05), key=lambda p: err(*p))
        step /= 2.5
    return math.exp(mu), s


def interrupts(runs):
    gaps = [g for r in runs for g in r["hostStalls"]["gaps"]]
    edges = (5, 10, 20, 50, 100, 200)
    per = {b["upToUs"]: 0.0 for b in gaps[0]["notSwitched"]["bins"]}
    for g in gaps:
        for b in g["notSwitched"]["bins"]:
            per[b["upToUs"]] += b["perSec"] / len(gaps)
    bins = [(edges[i], edges[i + 1], per[edges[i + 1]]) for i in range(len(edges) - 1)]
    med_us, sigma = fit_lognormal(bins)
    med_ns, sigma = ns(med_us), round(sigma, 2)
    mean_us = med_ns / 1000 * math.exp(sigma ** 2 / 2)
    bw = [x for r in runs for x in r["busyWake"]["runs"]]
    seconds = median(r["busyWake"]["seconds"] for r in runs)
    lost = median(x["busyLostMsWithout"] for x in bw) / (1000 * seconds)
    rate = sig(lost / (mean_us / 1e6), 3)
    rate = int(rate) if rate >= 100 else rate
    text = ("interrupts from hostStalls' gaps that no switch explains, 5-200 us pooled over the %d CPU-runs (per "
            "second of a CPU-run %s): lognormal median %.1f us, sigma %.2f (mean %.1f us; least squares on the bins' "
            "shares), at the rate that makes them the %.2f %% a busy thread loses beside nothing but noise (busyWake's "
            "control thread, median of its %d runs): %g a second"
            % (len(gaps), ", ".join("%.1f %g-%g us" % (n, a, b) for a, b, n in bins), med_ns / 1000, sigma, mean_us,
               100 * lost, len(bw), rate))
    return {"irqPerSec": rate, "irqMedianNs": med_ns, "irqSigma": sigma}, text


def host_stalls(runs):
    gaps = [g for r in runs for g in r["hostStalls"]["gaps"]]
    stalls, parts = [], []
    for name, keys, length in STALLS:
        per_run = [sum(b["perSec"] for b in g["notSwitched"]["bins"] if b["upToUs"] in keys) for g in gaps]
        stalls.append({"name": name, "perSec": round(sum(per_run) / len(per_run), 2), "medianNs": length,
                       "sigma": STALL_SIGMA})
        parts.append("%s %.2f a second (%.1f-%.1f)" % ("0.2-1 ms" if name == "short" else "over 2 ms",
                                                       stalls[-1]["perSec"], min(per_run), max(per_run)))
    share = sum(s["perSec"] * s["medianNs"] / 1e9 * math.exp(STALL_SIGMA ** 2 / 2) for s in stalls)
    steal = [ms / 10 / r["hostStalls"]["busySeconds"] for r in runs
             for ms in r["hostStalls"]["busyStealMs"].values()]
    text = ("host stalls from the same gaps over 200 us (per second of a CPU-run, the mean over them: %s) with "
            "2026-12-06e's lengths (350 us and 3 ms, sigma 0.4): %.2f %% of the time, against /proc/stat's steal of "
            "%.1f-%.1f %% of a busy CPU" % ("; ".join(parts), 100 * share, min(steal), max(steal)))
    idle = [x for r in runs for x in r["idleExit"]]
    waits = sorted(x["returnLatencyUs"]["max"] for x in idle if x["returnLatencyUs"]["max"] > WAKE_DELAY_OVER_US)
    wakeups = sum(x["returnLatencyUs"]["count"] for x in idle)
    delay = None
    if waits:
        delay = {"pct": round(100 * len(waits) / wakeups, 3), "medianNs": ns(median(waits), 100000),
                 "sigma": WAKE_DELAY_SIGMA}
        text += ("; a halted vCPU's wait for its host from idleExit's maxima (%.1f-%.1f ms in %d of the %d runs, %d "
                 "wakeups): %.3f %% of wakeups, lognormal %.1f ms sigma %.2f"
                 % (waits[0] / 1000, waits[-1] / 1000, len(waits), len(idle), wakeups, delay["pct"],
                    delay["medianNs"] / 1e6, WAKE_DELAY_SIGMA))
    return stalls, delay, text


def background(runs):
    machines = [r["idleMachine"] for r in runs]
    total_runs = median(m["runsPerSec"] for m in machines)
    total_ms = median(m["cpuMsPerSec"] for m in machines)
    out, parts, rest_runs, rest_ms = [], [], total_runs, total_ms
    for name, comm, sigma in NAMED_THREADS:
        tops = [t for m in machines for t in m["top"] if t["comm"].startswith(comm)]
        if not tops:
            continue
        rate, us = median(t["runsPerSec"] for t in tops), median(t["usPerRun"] for t in tops)
        rest_runs -= rate
        rest_ms -= rate * us / 1000
        out.append({"name": name, "threads": 1, "wakeupsPerSec": round(rate, 1), "runMedianNs": ns(sig(us), 1000),
                    "runSigma": sigma})
        parts.append("%s %.1f a second of %.2f ms" % (comm, rate, us / 1000))
    wakeups = 5 * round(rest_runs / 5)
    mean_us = 1000 * rest_ms / wakeups
    daemons = {"name": "daemons", "threads": DAEMONS_THREADS, "wakeupsPerSec": wakeups,
               "runMedianNs": ns(sig(mean_us / math.exp(DAEMONS_SIGMA ** 2 / 2)), 1000), "runSigma": DAEMONS_SIGMA}
    text = ("background threads from idleMachine's /proc counts (medians of %.1f-%.1f runs and %.1f-%.1f ms of CPU a "
            "second: %.1f and %.2f): %s, the rest %d a second of %.1f us on average (lognormal median %.0f us, "
            "sigma %.1f)"
            % (min(m["runsPerSec"] for m in machines), max(m["runsPerSec"] for m in machines),
               min(m["cpuMsPerSec"] for m in machines), max(m["cpuMsPerSec"] for m in machines), total_runs, total_ms,
               ", ".join(parts), wakeups, mean_us, daemons["runMedianNs"] / 1000, DAEMONS_SIGMA))
    return [daemons] + out, text


def after_halt(runs):
    def lost(mode):
        return sum(g["ms"] for g in mode["gaps"] if g["upToUs"] in (50, 200)) / mode["runMs"]
    ratios = sorted(lost(s["periodic"]) / lost(s["busy"]) for r in runs for s in r.get("runGaps", [])
                    if s["runUs"] <= AFTER_HALT_MAX_RUN_US)
    if not ratios:
        return None, None
    factor = round(0.05 * round(median(ratios) / 0.05), 2)
    return {"irqFactor": factor, "windowNs": AFTER_HALT_WINDOW_NS}, (
        "after a halt: runGaps' 2-200 us gaps take a periodic thread's runs %.3f times a busy loop's in the same "
        "seconds (median of %d shape-runs with runs up to 5 ms, %.2f-%.2f): irqFactor %.2f within %d ms of the halt"
        % (median(ratios), len(ratios), ratios[0], ratios[-1], factor, AFTER_HALT_WINDOW_NS // 1000000))


def reprogram_source(args, doc):
    if args.rearm_us:
        call, behind = args.rearm_us
        return (call - behind) / REARM_FIRST_SHARE, "rearm.c, (%.2f - %.2f) / %.2f" % (call, behind,
                                                                                         REARM_FIRST_SHARE)
    hw = doc.get("hardware", {})
    if "hrtimerReprogramNs" in hw:
        return hw["hrtimerReprogramNs"] / 1000, "this file's hardware block's, not measured in this block"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--rearm-us", nargs=2, type=float, metavar=("CALL_US", "BEHIND_TICK_US"))
    args = ap.parse_args()
    doc = json.load(open(args.file))
    runs = doc["machineNoiseRuns"]
    share = irq_share(runs)
    reprogram = reprogram_source(args, doc)
    pipe, pipe_text = pipe_wake(runs, share)
    busy, cycle, busy_text = busy_wake(runs, share, pipe["wakeKernelNs"], reprogram)
    exits, exit_text = idle_exits(runs, cycle)
    irq, irq_text, stalls, delay, stall_text = {}, None, None, None, None
    if all("hostStalls" in r for r in runs):
        irq, irq_text = interrupts(runs)
        stalls, delay, stall_text = host_stalls(runs)
    else:
        print("no hostStalls in the block: no interrupts, host stalls or wakeDelay in the noise", file=sys.stderr)
    threads, bg_text = background(runs)
    halt, halt_text = after_halt(runs)
    noise = dict(irq, timerJitterNs=TIMER_JITTER_NS, background=threads)
    if stalls:
        noise["hostStalls"] = stalls
    if delay:
        noise["wakeDelay"] = delay
    if halt:
        noise["afterHalt"] = halt
    hw = dict(pipe, **busy, **exits, noise=noise)
    order = ("wakeKernelNs", "hrtimerSleepNs", "hrtimerIrqNs", "hrtimerReprogramNs", "wakeClockSkipNs",
             "shallowIdleExitNs", "deepIdleExitNs", "idleExitCpuShare", "noise")
    hw = {k: hw[k] for k in order if k in hw}
    hw["noiseWhy"] = "; ".join(t for t in (irq_text, stall_text, bg_text, halt_text, "timer lateness validation-2c's "
                                           "4 us") if t)
    hw["derivation"] = ("From this file's machineNoiseRuns (%d measurements, each figure's median over them; "
                        "busyWake's over its runs), by scripts/derive-host-costs.py (the rules of "
                        "latency-cases-2026-12-06e.json and -07f.json; docs/latency-validation.md). %s. %s. %s. %s"
                        % (len(runs), busy_text, pipe_text, exit_text, cross_wake(runs)))
    print(json.dumps(hw, indent=1))
    print("ipiWakeNs and ipiDeliveryNs left out: they need a model run (crossWake against the model without IPI)",
          file=sys.stderr)
    if not reprogram:
        print("hrtimerReprogramNs left out (no --rearm-us and none in the file): hrtimerSleepNs is the whole timer",
              file=sys.stderr)
    elif not args.rearm_us:
        print("hrtimerReprogramNs taken from the file's hardware block", file=sys.stderr)


if __name__ == "__main__":
    main()
