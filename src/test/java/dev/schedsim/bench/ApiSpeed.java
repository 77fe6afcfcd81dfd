package dev.schedsim.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API speed benchmark of scripts/api-speed.sh (plain JDK, run as a single source file:
 * {@code java src/test/java/dev/schedsim/bench/ApiSpeed.java BASE_URL SERVICE_PID JOBS}). Not a test: nothing
 * asserts, the numbers go into the issue notes.
 * <ol>
 * <li>Real-time factor: submits the 2-CPU validation cases (a 3 s bandwidth case each) one after another and
 * prints, per case and overall, simulated time divided by the job's own time from {@code startedAt} to
 * {@code finishedAt} (the server's timestamps: queueing before the start is not counted).</li>
 * <li>Cores: submits one simulation of 2 variants × 4 repetitions of a larger machine and samples the service
 * process's CPU time (utime + stime of /proc/PID/stat) over the simulation's wall time; prints the mean
 * number of cores busy, next to the number of cores the machine has (skipped with the environment variable
 * {@code AS_CORES=0}).</li>
 * <li>Sweep: one simulation of 16 variants (4 kernel profiles × 4 HZ) × 20 repetitions of a validation case,
 * 320 small runs: wall time from submission to SUCCEEDED, runs per second and the service's CPU per run, and
 * the size of the database after it (SWEEPS sweeps in a row, default 1).</li>
 * <li>Burst (a sweep as separate jobs): submits BURST validation jobs at once (the four cases in turn), waits
 * for all, and prints jobs per second and simulated seconds per wall second from the first submission to the
 * last finish, and the service's CPU time per job.</li>
 * </ol>
 */
public final class ApiSpeed {
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z]+)\"");
    private static final Pattern STARTED = Pattern.compile("\"startedAt\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern FINISHED = Pattern.compile("\"finishedAt\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern SIMULATED = Pattern.compile("\"simulatedUs\"\\s*:\\s*(\\d+)");

    /**
     * Four cases of src/test/resources/validation (cases.json and cases-schedsim.json), by their names there:
     * the cgroup and the threads of each, run for the harness's 3 s.
     */
    private static final String[][] CASES = {
        {"one50", "[{\"path\":\"/a\",\"cpuMax\":\"50000 100000\"}]",
            "[{\"name\":\"w\",\"cgroup\":\"/a\",\"type\":\"cpu-bound\",\"threads\":1}]"},
        {"four150", "[{\"path\":\"/a\",\"cpuMax\":\"150000 100000\"}]",
            "[{\"name\":\"w\",\"cgroup\":\"/a\",\"type\":\"cpu-bound\",\"threads\":4}]"},
        {"multi-short", "[{\"path\":\"/a\",\"cpuMax\":\"50000 100000\"}]",
            "[{\"name\":\"w\",\"cgroup\":\"/a\",\"type\":\"periodic\",\"threads\":4,\"runUs\":1000,\"sleepUs\":4000}]"},
        {"burst-steady", "[{\"path\":\"/a\",\"cpuMax\":\"20000 100000\",\"cpuMaxBurst\":20000}]",
            "[{\"name\":\"w\",\"cgroup\":\"/a\",\"type\":\"periodic\",\"threads\":1,\"runUs\":12000,\"sleepUs\":63000}]"},
    };

    private ApiSpeed() {
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        long pid = args.length > 1 ? Long.parseLong(args[1]) : -1;
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        int burst = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        int sweeps = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        Path database = args.length > 5 ? Path.of(args[5]) : null;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        // Warm-up: the JIT compiles the engine and the service paths.
        for (int i = 0; i < 20; i++) {
            await(http, base, submit(http, base, validationCase(CASES[i % CASES.length], 1000 + i)));
        }
        List<Double> all = new ArrayList<>();
        List<List<Double>> byCase = new ArrayList<>();
        for (int k = 0; k < CASES.length; k++) {
            byCase.add(new ArrayList<>());
        }
        // The cases take turns, so that a slower phase of the shared machine hits them alike.
        for (int i = 0; i < jobs; i++) {
            for (int k = 0; k < CASES.length; k++) {
                String view = await(http, base, submit(http, base, validationCase(CASES[k], i)));
                double simulatedUs = Double.parseDouble(group(SIMULATED, view));
                Duration d = Duration.between(Instant.parse(group(STARTED, view)), Instant.parse(group(FINISHED, view)));
                double factor = simulatedUs / Math.max(1, d.toNanos() / 1000.0);
                byCase.get(k).add(factor);
                all.add(factor);
            }
        }
        if (jobs > 0) {
            for (int k = 0; k < CASES.length; k++) {
                System.out.printf("validation case %-12s %s%n", CASES[k][0], summary(byCase.get(k)));
            }
            System.out.printf("validation cases, all   %s%n", summary(all));
        }
        int big = Integer.parseInt(System.getenv().getOrDefault("AS_BIG", "3"));
        if (big > 0) {
            bigCase(http, base, big);
        }
        if (pid > 0) {
            if (!"0".equals(System.getenv("AS_CORES"))) {
                cores(http, base, pid);
            }
            for (int i = 0; i < sweeps; i++) {
                sweep(http, base, pid, database);
            }
            if (burst > 0) {
                burst(http, base, pid, burst);
            }
        }
    }

    /**
     * The speed issue's 256-CPU case (bench BenchSpecs.epyc64Groups): epyc-2s-64c-smt2-8ccx, 64 groups each limited
     * to 4 CPUs, 1 024 threads (a third each CPU-bound, periodic 2 ms / 8 ms and request-response), 1 s; one job at
     * a time, after a first one that warms the JIT for it; each job's real-time factor.
     */
    private static void bigCase(HttpClient http, String base, int n) throws Exception {
        StringBuilder cgroups = new StringBuilder();
        StringBuilder workloads = new StringBuilder();
        for (int g = 0; g < 64; g++) {
            String sep = g == 0 ? "" : ",";
            cgroups.append(sep).append("{\"path\":\"/pod%d\",\"cpuMax\":\"400000 100000\"}".formatted(g));
            workloads.append(sep).append(switch (g % 3) {
                case 0 -> "{\"name\":\"batch%d\",\"cgroup\":\"/pod%d\",\"type\":\"cpu-bound\",\"threads\":16}"
                        .formatted(g, g);
                case 1 -> ("{\"name\":\"web%d\",\"cgroup\":\"/pod%d\",\"type\":\"periodic\",\"threads\":16,"
                        + "\"runUs\":2000,\"sleepUs\":8000}").formatted(g, g);
                default -> ("{\"name\":\"svc%d\",\"cgroup\":\"/pod%d\",\"type\":\"request-response\",\"pairs\":8,"
                        + "\"serviceUs\":50,\"thinkUs\":20}").formatted(g, g);
            });
        }
        List<Double> factors = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            String body = """
                    {"name":"api-speed-256","topology":{"preset":"epyc-2s-64c-smt2-8ccx"},"kernel":{"hz":250},
                     "cgroups":[%s],"workloads":[%s],"durationMs":1000,"seed":%d}""".formatted(cgroups, workloads, 42 + i);
            String view = await(http, base, submit(http, base, body));
            double simulatedUs = Double.parseDouble(group(SIMULATED, view));
            Duration d = Duration.between(Instant.parse(group(STARTED, view)), Instant.parse(group(FINISHED, view)));
            if (i > 0) {
                factors.add(simulatedUs / Math.max(1, d.toNanos() / 1000.0));
            }
        }
        Collections.sort(factors);
        System.out.printf("256-CPU case (64 limited groups, 1 024 threads, 1 s) after one warm-up job: %d jobs, "
                + "real-time factor best %.2fx, median %.2fx, worst %.2fx%n", n, factors.get(n - 1),
                factors.get(n / 2), factors.get(0));
    }

    private static void sweep(HttpClient http, String base, long pid, Path database) throws Exception {
        StringBuilder variants = new StringBuilder();
        for (String profile : new String[] {"5.15", "6.1", "6.6", "6.18"}) {
            for (int hz : new int[] {100, 250, 300, 1000}) {
                variants.append(variants.length() == 0 ? "" : ",").append(
                        "{\"label\":\"%s-%d\",\"kernel\":{\"profile\":\"%s\",\"hz\":%d}}".formatted(profile, hz, profile, hz));
            }
        }
        String body = """
                {"name":"api-speed-sweep","topology":{"preset":"validation-2c"},
                 "cgroups":[{"path":"/a","cpuMax":"150000 100000"}],
                 "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":4}],
                 "durationMs":3000,"seed":1,"repetitions":20,"variants":[%s]}""".formatted(variants);
        long cpu0 = cpuTicks(pid);
        long t0 = System.nanoTime();
        String view = await(http, base, submit(http, base, body));
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuTicks(pid) - cpu0) / 100.0; // USER_HZ
        System.out.printf("sweep of 320 runs (16 variants x 20 repetitions of a 3 s validation case): status %s, "
                + "%.2f s wall = %.0f runs/s, %.0fx real time in all; service CPU %.2f ms per run%s%n",
                group(STATUS, view), wall, 320 / wall, 960 / wall, cpu * 1000 / 320,
                database == null ? "" : "; database %.0f MB".formatted(size(database) / 1e6));
    }

    /** The bytes of the files under a directory (the H2 database). */
    private static long size(Path dir) throws java.io.IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static void burst(HttpClient http, String base, long pid, int n) throws Exception {
        long cpu0 = cpuTicks(pid);
        long t0 = System.nanoTime();
        List<String> locations = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            locations.add(submit(http, base, validationCase(CASES[i % CASES.length], 5000 + i)));
        }
        double simulatedUs = 0;
        for (String location : locations) {
            simulatedUs += Double.parseDouble(group(SIMULATED, await(http, base, location)));
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuTicks(pid) - cpu0) / 100.0; // USER_HZ
        System.out.printf("burst of %d validation jobs submitted at once: %.1f s from the first submission to the "
                + "last finish = %.0f jobs/s, %.0fx real time in all; service CPU %.2f ms per job%n", n, wall,
                n / wall, simulatedUs / 1e6 / wall, cpu * 1000 / n);
    }

    private static String summary(List<Double> f) {
        List<Double> s = new ArrayList<>(f);
        Collections.sort(s);
        return String.format("jobs %d: real-time factor (simulated / job start-to-finish) median %.0fx, p10 %.0fx, "
                + "p90 %.0fx", s.size(), s.get(s.size() / 2), s.get(s.size() / 10), s.get(s.size() * 9 / 10));
    }

    private static String validationCase(String[] c, long seed) {
        return """
                {"name":"api-speed-%s","topology":{"preset":"validation-2c"},"kernel":{"profile":"6.18","hz":250},
                 "cgroups":%s,"workloads":%s,"durationMs":3000,"seed":%d}""".formatted(c[0], c[1], c[2], seed);
    }

    private static void cores(HttpClient http, String base, long pid) throws Exception {
        String body = """
                {"name":"api-speed-cores","topology":{"preset":"power10-8c-smt8"},"kernel":{"profile":"6.18"},
                 "cgroups":[{"path":"/a","cpuMax":"1600000 100000"}],
                 "workloads":[{"name":"w","cgroup":"/a","type":"periodic","threads":128,"runUs":500,"sleepUs":700,
                               "jitterPct":30}],
                 "durationMs":4000,"seed":1,"repetitions":4,
                 "variants":[{"label":"aligned","kernel":{"features":{"BANDWIDTH_TIMER_INTERLEAVE":false}}},
                             {"label":"interleaved","kernel":{"features":{"BANDWIDTH_TIMER_INTERLEAVE":true}}}]}""";
        long cpu0 = cpuTicks(pid);
        long t0 = System.nanoTime();
        String view = await(http, base, submit(http, base, body));
        long wall = System.nanoTime() - t0;
        long cpu = cpuTicks(pid) - cpu0;
        double ticksPerSec = 100.0; // USER_HZ
        double cores = cpu / ticksPerSec / (wall / 1e9);
        System.out.printf("8 runs (2 variants x 4 repetitions) of a 64-CPU machine: status %s, wall %.1f s, service "
                + "CPU %.1f s = %.2f cores busy on average of %d available%n", group(STATUS, view), wall / 1e9,
                cpu / ticksPerSec, cores, Runtime.getRuntime().availableProcessors());
    }

    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static String submit(HttpClient http, String base, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/simulations"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException("submit answered " + r.statusCode() + ": " + r.body());
        }
        return r.headers().firstValue("Location").orElseThrow();
    }

    private static String await(HttpClient http, String base, String location) throws Exception {
        URI uri = URI.create(location.startsWith("http") ? location : base + location);
        // The real-time factor is the service's own startedAt -> finishedAt, so how often this asks changes only what
        // the asking costs: every 10 ms at first (a 2-CPU job takes milliseconds), then less often, up to every
        // 200 ms, so that a long job's polling does not take a core of a 2-vCPU machine from the run it measures
        long start = System.nanoTime();
        for (int i = 0; i < 600_000; i++) {
            String view = http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
                    .body();
            String s = group(STATUS, view);
            if (!s.equals("QUEUED") && !s.equals("RUNNING")) {
                if (!s.equals("SUCCEEDED")) {
                    throw new IllegalStateException(location + " ended " + s + ": " + view);
                }
                return view;
            }
            Thread.sleep(Math.min(200, 10 + (System.nanoTime() - start) / 10_000_000));
        }
        throw new IllegalStateException(location + " did not finish");
    }

    private static String group(Pattern p, String s) {
        Matcher m = p.matcher(s);
        if (!m.find()) {
            throw new IllegalStateException(p + " not in " + s.substring(0, Math.min(300, s.length())));
        }
        return m.group(1);
    }
}
