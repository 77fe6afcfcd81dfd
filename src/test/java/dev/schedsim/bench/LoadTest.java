package dev.schedsim.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The loopback load test of scripts/load-test.sh (plain JDK, run as a single source file:
 * {@code java src/test/java/dev/schedsim/bench/LoadTest.java BASE_URL CLIENTS SECONDS}). Each client submits
 * small simulations back to back for the duration; prints submissions per second, submit latency percentiles
 * and the answers by status code. Not a test: nothing asserts, the numbers go into the issue notes.
 */
public final class LoadTest {
    private LoadTest() {
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 60;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long[][] latencies = new long[clients][];
        int[] counts = new int[clients];
        ConcurrentHashMap<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            int client = c;
            latencies[c] = new long[1 << 16];
            Thread t = new Thread(() -> {
                long seed = client * 1_000_000L;
                try {
                    while (System.nanoTime() < end) {
                        String body = """
                                {"name":"load","topology":{"preset":"validation-2c"},
                                 "cgroups":[{"path":"/a","cpuMax":"50000 100000"}],
                                 "workloads":[{"name":"w","cgroup":"/a","type":"cpu-bound","threads":2}],
                                 "durationMs":200,"seed":%d}""".formatted(seed++);
                        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/simulations"))
                                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        long t0 = System.nanoTime();
                        int status;
                        try {
                            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (java.io.IOException e) {
                            errors.incrementAndGet();
                            continue;
                        }
                        long dt = System.nanoTime() - t0;
                        byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
                        if (counts[client] == latencies[client].length) {
                            latencies[client] = Arrays.copyOf(latencies[client], counts[client] * 2);
                        }
                        latencies[client][counts[client]++] = dt;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
            t.start();
        }
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        int n = Arrays.stream(counts).sum();
        long[] all = new long[n];
        int k = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(latencies[c], 0, all, k, counts[c]);
            k += counts[c];
        }
        Arrays.sort(all);
        long accepted = byStatus.getOrDefault(202, new AtomicLong()).get();
        long fiveXx = byStatus.entrySet().stream().filter(e -> e.getKey() >= 500)
                .mapToLong(e -> e.getValue().get()).sum();
        System.out.printf("load-test: %d clients, %.1f s: %d requests, %d accepted (202), %.1f submissions/s; "
                        + "submit latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; 5xx %d; connection errors %d; "
                        + "by status %s%n", clients, elapsed, n, accepted, accepted / elapsed, pct(all, 0.50),
                pct(all, 0.99), n == 0 ? 0 : all[n - 1] / 1e6, fiveXx, errors.get(), byStatus);
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
    }
}
