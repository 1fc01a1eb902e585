package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.core.inflight.InFlightWindow;
import org.dsload.process.JMeterJvm;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Requests in flight against redis-benchmark, back to back on one redis-server: 10,000 keys of
 * 100 bytes, GET, the same number of requests outstanding (dsload: T threads x N in flight of
 * test-plans/ekv-profile-get.jmx, results file written; redis-benchmark: T x N connections, -P 1).
 * Each round runs dsload then redis-benchmark; throughput and p99 over the measured window, and
 * the server's own count of GETs against the requests the results file reports.
 *
 * <p>Settings ({@code -Dbench.props="inflight=2x25 rounds=2 blocking=true jfr=true"}):
 * {@code inflight} threads x requests per thread, {@code rounds} (2), {@code blocking} adds a row
 * of the same plan with as many threads as requests outstanding, one each (In flight 1),
 * {@code jfr} records a Java Flight Recorder file of each dsload run beside its results;
 * {@code bench.seconds} and {@code bench.warmup} as for every benchmark.
 */
final class InFlightComparison {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    static final int KEYS = 10_000;

    private InFlightComparison() {
    }

    /** One dsload run: its row, and the GETs the server counted against those the results file reports. */
    private record DsloadRun(Bench.Row row, long reported, long cancelled, long served, long rows) {
    }

    /** Settings from {@code bench.inflight}, {@code bench.rounds}, {@code bench.blocking}, {@code bench.jfr}. */
    static void run() throws Exception {
        String[] shape = System.getProperty("bench.inflight").split("x");
        int threads = Integer.parseInt(shape[0]);
        int perThread = Integer.parseInt(shape[1]);
        int rounds = Integer.getInteger("bench.rounds", 2);
        boolean jfr = Boolean.getBoolean("bench.jfr");
        boolean blocking = Boolean.getBoolean("bench.blocking");
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Bench.warmup(5);
        if (!Bench.onPath("redis-benchmark")) {
            throw new IllegalStateException("redis-benchmark is not installed (Debian: apt-get install redis-tools)");
        }
        List<Bench.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            load(redis);
            for (int round = 1; round <= rounds; round++) {
                DsloadRun dsload = dsload(redis, threads, perThread, warmup, seconds, round, jfr);
                Bench.Row reference = RedisBenchmark.redisBenchmark(redis, threads * perThread, seconds,
                        dsload.row().throughput() * 2.5, List.of("-d", "100"));
                rows.add(dsload.row());
                rows.add(reference);
                if (blocking) {
                    DsloadRun threads1 = dsload(redis, threads * perThread, 1, warmup, seconds, round, false);
                    rows.add(threads1.row());
                    lines.add(String.format(Locale.ROOT, "round %d: %d threads, one request each: throughput %.3fx, "
                            + "p99 %.2fx of redis-benchmark", round, threads * perThread,
                            threads1.row().throughput() / reference.throughput(),
                            (double) threads1.row().p99Micros() / reference.p99Micros()));
                }
                lines.add(String.format(Locale.ROOT,
                        "round %d (load average %s): throughput %.3fx, p99 %.2fx of redis-benchmark; server GETs %d, "
                                + "results file %d requests (%d cancelled at the end) in %d rows: %s",
                        round, loadAverage(), dsload.row().throughput() / reference.throughput(),
                        (double) dsload.row().p99Micros() / reference.p99Micros(), dsload.served(), dsload.reported(),
                        dsload.cancelled(), dsload.rows(), dsload.served() == dsload.reported() ? "equal"
                        : "differ by " + (dsload.reported() - dsload.served())));
            }
        }
        System.out.println();
        System.out.println("Redis GET, " + KEYS + " keys of 100 B, " + threads * perThread + " requests outstanding, "
                + warmup + " s warm-up then " + seconds + " s measured per row, "
                + Runtime.getRuntime().availableProcessors() + " cores shared by redis-server and the load generator");
        System.out.print(Bench.table(rows));
        lines.forEach(System.out::println);
    }

    /** The machine's 1-minute load average, to read the figures by. */
    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }

    /**
     * 100-byte values under the keys of ekv-profile-get (1:0 ...), redis-get-rate (key:0 ...) and
     * redis-benchmark (key:000000000000 ...).
     */
    static void load(EmbeddedRedis redis) {
        byte[] value = "v".repeat(100).getBytes(StandardCharsets.US_ASCII);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline pipe = jedis.pipelined();
            for (int i = 0; i < KEYS; i++) {
                pipe.set(("1:" + i).getBytes(StandardCharsets.US_ASCII), value);
                pipe.set(("key:" + i).getBytes(StandardCharsets.US_ASCII), value);
                pipe.set(String.format(Locale.ROOT, "key:%012d", i).getBytes(StandardCharsets.US_ASCII), value);
            }
            pipe.sync();
        }
    }

    private static DsloadRun dsload(EmbeddedRedis redis, int threads, int perThread, int warmup, int seconds, int round,
            boolean jfr) throws Exception {
        String id = "redis-inflight-" + threads + "x" + perThread + "-" + round;
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId(id)
                .dashboard(false).timeout(Duration.ofSeconds(warmup + seconds + 180))
                .property("hosts", redis.address()).property("threads", Integer.toString(threads))
                .property("in_flight", Integer.toString(perThread)).property("duration", Integer.toString(warmup + seconds))
                .property("profiles", Integer.toString(KEYS)).property("load_threads", "0").property("rampup", "0");
        if (jfr) {
            Checkout.target().resolve("bench-results").toFile().mkdirs();
            List<String> jvm = new ArrayList<>(JMeterJvm.heap("1g")); // the runner's own heap, recorded
            jvm.add("-XX:StartFlightRecording=filename=" + Checkout.target().resolve("bench-results/" + id + ".jfr")
                    + ",settings=profile");
            run.jvmArgs(jvm);
        }
        RedisCalls.reset(redis);
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        long served = RedisCalls.of(redis, "GET");
        long reported = 0;
        long cancelled = 0;
        try (JtlReader reader = new JtlReader(outcome.jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals("GET profile")) {
                    reported += s.sampleCount();
                    cancelled += s.responseCode().equals(InFlightWindow.CANCELLED) ? s.sampleCount() : 0;
                }
            }
        }
        long lines = java.nio.file.Files.lines(outcome.jtl()).filter(l -> l.contains(",GET profile,")).count();
        String tool = perThread == 1 ? "(a1) dsload " + threads + " threads, In flight 1"
                : "(a) dsload " + threads + " threads x " + perThread + " in flight";
        Bench.Row row = RedisBenchmark.window(tool, outcome.jtl(), threads * perThread, warmup, seconds);
        return new DsloadRun(row, reported, cancelled, served, lines);
    }
}
