package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.RunProperties;
import org.dsload.process.JMeterJvm;
import org.dsload.recording.RecordMode;
import org.dsload.report.ExactHistogram;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

/**
 * S3's question asked of the tool itself: does JMeter with the dsload sampler drive a
 * Redis-protocol store as hard as a plain Jedis loop, and what does recording the results cost?
 * Same embedded redis-server, same keys and values, same pool settings, same thread counts, one
 * after the other in one run, each in a JVM of its own with the same heap, each measured over the
 * same window after a warm-up:
 * <ul>
 * <li>(a) test-plans/ekv-profile-get.jmx through the dsload runner, a row per sample written by
 * dsload's results writer (rows mode, the default);</li>
 * <li>(aJ) the same plan in JMeter with JMeter's own results writer ({@code -l}), as before;</li>
 * <li>(a0) the same without a results file, to show what writing it costs;</li>
 * <li>(h) the same through the runner in histograms mode (interval logs, a row per label and second);</li>
 * <li>(b) {@link PlainRedisLoop}: a plain Java loop over the same RedisClient settings;</li>
 * <li>(c) redis-benchmark -t get, when it is installed.</li>
 * </ul>
 * System properties: {@code bench.threads} (default 10,50,100), {@code bench.seconds} measured
 * per row (default 15), {@code bench.warmup} seconds (default 5), {@code bench.profiles} (10000),
 * {@code bench.values} (the plan's value sizes, default 100 bytes), {@code bench.rounds} (default 2:
 * every configuration measured again in the opposite order; the ratios use the means),
 * {@code bench.per_sample} (the plan's {@code requests_per_sample}, default 1, in every JMeter row).
 *
 * <p>With {@code -Dbench.props="inflight=2x25"} it measures requests in flight instead
 * ({@link InFlightComparison}): dsload with 2 threads of 25 requests in flight against
 * redis-benchmark with 50 connections, on 100-byte values; with {@code capacity=4x2500}, how many
 * one engine holds in flight ({@link InFlightCapacity}); with {@code down=10x1}, what threads do
 * when the server goes away ({@link ServerDownRun}).
 */
public final class RedisBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String GET = "GET profile";

    private RedisBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        if (System.getProperty("bench.inflight") != null) {
            InFlightComparison.run();
            return;
        }
        if (System.getProperty("bench.capacity") != null) {
            InFlightCapacity.run();
            return;
        }
        if (System.getProperty("bench.cpu") != null) {
            CpuPerGet.run();
            return;
        }
        if (System.getProperty("bench.down") != null) {
            ServerDownRun.run();
            return;
        }
        List<Integer> threadCounts = Bench.threads("10,50,100");
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Bench.warmup(5);
        int profiles = Integer.getInteger("bench.profiles", 10_000);
        String values = System.getProperty("bench.values", "100");
        int rounds = Integer.getInteger("bench.rounds", 2);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            preload(redis, profiles, values);
            for (int threads : threadCounts) {
                // the machine's other load drifts: rounds alternate the order, ratios use the means
                java.util.Map<String, List<Bench.Row>> measured = new java.util.LinkedHashMap<>();
                List<String> order = new ArrayList<>(List.of("a", "aJ", "a0", "h", "b"));
                for (int round = 1; round <= rounds; round++) {
                    for (String config : order) {
                        Bench.Row row = switch (config) {
                            case "a" -> rowsMode(redis, threads, warmup, seconds, profiles);
                            case "aJ" -> jmeterDirect(redis, threads, warmup, seconds, profiles, true);
                            case "a0" -> jmeterDirect(redis, threads, warmup, seconds, profiles, false);
                            case "h" -> histograms(redis, threads, warmup, seconds, profiles);
                            default -> plainLoop(redis, threads, warmup, seconds, profiles);
                        };
                        System.out.println("measured, round " + round + ": " + row);
                        measured.computeIfAbsent(config, k -> new ArrayList<>()).add(row);
                        rows.add(new Bench.Row(row.tool() + (rounds > 1 ? ", round " + round : ""), row.threads(),
                                row.operations(), row.seconds(), row.p99Micros()));
                    }
                    java.util.Collections.reverse(order);
                }
                if (Bench.onPath("redis-benchmark")) {
                    rows.add(redisBenchmark(redis, threads, seconds, mean(measured.get("b"))));
                }
                ratios.add(String.format(Locale.ROOT, "threads %3d, means of %d rounds: h/b = %.3f, a/a0 = %.3f, "
                        + "aJ/a0 = %.3f, a/aJ = %.3f, a/b = %.3f, a0/b = %.3f", threads, rounds,
                        mean(measured.get("h")) / mean(measured.get("b")), mean(measured.get("a")) / mean(measured.get("a0")),
                        mean(measured.get("aJ")) / mean(measured.get("a0")), mean(measured.get("a")) / mean(measured.get("aJ")),
                        mean(measured.get("a")) / mean(measured.get("b")), mean(measured.get("a0")) / mean(measured.get("b"))));
            }
        }
        System.out.println();
        System.out.println("Redis GET of " + profiles + " profiles (value sizes " + values + "), " + warmup
                + " s warm-up then " + seconds + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by redis-server and the load generator");
        System.out.print(Bench.table(rows));
        ratios.forEach(System.out::println);
        if (!Bench.onPath("redis-benchmark")) {
            System.out.println("(redis-benchmark is not installed: rows (c) skipped)");
        }
    }

    private static double mean(List<Bench.Row> rows) {
        return rows.stream().mapToDouble(Bench.Row::throughput).average().orElse(Double.NaN);
    }

    /** Writes the profiles the plan reads: {@code profiles} values of the given sizes. */
    static void preload(EmbeddedRedis redis, int profiles, String values) throws Exception {
        PlanRunner.Outcome loaded = new PlanRunner(QUIET).run(planRun(redis, 1, 1, profiles, "1", "load")
                .property("value_sizes", values));
        if (!loaded.ok()) {
            throw new IllegalStateException("loading the profiles failed: " + loaded.problem());
        }
    }

    static PlanRun planRun(EmbeddedRedis redis, int threads, int seconds, int profiles, String loadThreads,
            String id) {
        return new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("redis-" + id)
                .dashboard(false).timeout(Duration.ofSeconds(seconds + 180))
                .property("hosts", redis.address()).property("threads", Integer.toString(threads))
                .property("duration", Integer.toString(seconds)).property("profiles", Integer.toString(profiles))
                .property("load_threads", loadThreads).property("rampup", "0")
                .property("requests_per_sample", Integer.toString(perSample()));
    }

    /** GETs per JMeter sample in the plan's reading threads ({@code bench.per_sample}, default 1). */
    static int perSample() {
        return Integer.getInteger("bench.per_sample", 1);
    }

    private static PlanRunner.Outcome run(PlanRun run) throws Exception {
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        return outcome;
    }

    /** (a): rows mode through the runner, dsload's results writer. */
    private static Bench.Row rowsMode(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles)
            throws Exception {
        return rowsMode(redis, threads, warmup, seconds, profiles, List.of());
    }

    static Bench.Row rowsMode(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles,
            List<String> jvmExtra) throws Exception {
        PlanRunner.Outcome outcome = run(planRun(redis, threads, warmup + seconds, profiles, "0", "rows-" + threads)
                .jvmArgs(jvm(jvmExtra)));
        return window("(a) rows, dsload's writer", outcome.jtl(), threads, warmup, seconds);
    }

    /** (h): histograms mode through the runner; the GETs of the intervals that started in the window. */
    private static Bench.Row histograms(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles)
            throws Exception {
        return histograms(redis, threads, warmup, seconds, profiles, List.of());
    }

    static Bench.Row histograms(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles,
            List<String> jvmExtra) throws Exception {
        PlanRunner.Outcome outcome = run(planRun(redis, threads, warmup + seconds, profiles, "0",
                "histograms-" + threads).property(RunProperties.RECORD, RecordMode.HISTOGRAMS.value())
                .jvmArgs(jvm(jvmExtra)));
        return Bench.fromRecording("(h) histograms mode", threads, outcome.dir(), GET, warmup, seconds);
    }

    /**
     * JMeter started directly, as before the dsload runner wrote results itself: (aJ) with JMeter's
     * own writer ({@code -l}), from its rows in the window; (a0) without a results file, from the
     * summariser's 5 s lines after the warm-up.
     */
    private static Bench.Row jmeterDirect(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles,
            boolean resultsFile) throws Exception {
        return jmeterDirect(redis, threads, warmup, seconds, profiles, resultsFile, List.of());
    }

    static Bench.Row jmeterDirect(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles,
            boolean resultsFile, List<String> jvmExtra) throws Exception {
        String id = (resultsFile ? "jmeter-writer-" : "bare-") + threads;
        PlanRun run = planRun(redis, threads, warmup + seconds, profiles, "0", id);
        Path jtl = Checkout.target().resolve("bench-results/redis-" + id + ".jtl");
        Files.createDirectories(jtl.getParent());
        Files.deleteIfExists(jtl);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(jvm(jvmExtra));
        command.addAll(List.of("-jar", Bench.jmeterLauncher().toString(), "-n", "-t", run.plan().toString(),
                "-j", Checkout.target().resolve("bench-results/redis-" + id + ".log").toString(),
                "-Jsummariser.interval=5", "-Jhosts=" + redis.address(), "-Jthreads=" + threads,
                "-Jduration=" + (warmup + seconds), "-Jprofiles=" + profiles, "-Jload_threads=0", "-Jrampup=0",
                "-Jjmeter.save.saveservice.sample_count=true", "-Jsample_variables=" + JtlColumns.TIMING,
                "-Jrequests_per_sample=" + perSample()));
        if (resultsFile) {
            command.addAll(List.of("-l", jtl.toString()));
        }
        String output = Bench.command(command, warmup + seconds + 180L);
        if (!resultsFile) {
            return Bench.fromSummariser("(a0) no results file", threads, output, warmup);
        }
        return window("(aJ) rows, JMeter's own writer", jtl, threads, warmup, seconds);
    }

    /** Every configuration's JVM: the same 1 GB heap, and any options a profiling run adds. */
    private static List<String> jvm(List<String> extra) {
        List<String> options = new ArrayList<>(JMeterJvm.heap("1g"));
        options.addAll(extra);
        return options;
    }

    /** The GET samples of a results file that started inside the measured window. */
    static Bench.Row window(String tool, Path jtl, int threads, int warmup, int seconds) throws Exception {
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals(GET)) {
                    first = Math.min(first, s.start());
                }
            }
        }
        long from = first + warmup * 1000L;
        long to = from + seconds * 1000L;
        ExactHistogram micros = new ExactHistogram();
        long ops = 0;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals(GET) && s.start() >= from && s.start() < to) {
                    ops += s.sampleCount();
                    micros.record(s.elapsedMicros());
                }
            }
        }
        return Bench.row(tool, threads, ops, seconds, micros);
    }

    private static Bench.Row plainLoop(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles)
            throws Exception {
        return plainLoop(redis, threads, warmup, seconds, profiles, List.of());
    }

    static Bench.Row plainLoop(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles,
            List<String> jvmExtra) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvm(jvmExtra));
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                PlainRedisLoop.class.getName(), redis.host(), Integer.toString(redis.port()), Integer.toString(threads),
                Integer.toString(warmup), Integer.toString(seconds), Integer.toString(profiles)));
        return Bench.plainLoopRow("(b) plain Java loop, same RedisClient", threads,
                Bench.command(command, warmup + seconds + 120L));
    }

    private static Bench.Row redisBenchmark(EmbeddedRedis redis, int threads, int seconds, double expectedRate)
            throws Exception {
        return redisBenchmark(redis, threads, seconds, expectedRate, List.of());
    }

    /** redis-benchmark -t get with as many requests as the expected rate makes in the given seconds. */
    static Bench.Row redisBenchmark(EmbeddedRedis redis, int threads, int seconds, double expectedRate,
            List<String> extra) throws Exception {
        long requests = Math.max(10_000, (long) (expectedRate * seconds));
        List<String> command = new ArrayList<>(List.of("redis-benchmark", "-h", redis.host(), "-p",
                Integer.toString(redis.port()), "-c", Integer.toString(threads), "-n", Long.toString(requests), "-t", "get",
                "-r", "10000", "-P", "1", "--csv"));
        command.addAll(extra);
        String output = Bench.command(command, seconds * 10L + 60);
        // "GET","<rps>","<avg>","<min>","<p50>","<p95>","<p99>","<max>"
        Matcher m = Pattern.compile("\"GET\",\"([\\d.]+)\",\"[\\d.]+\",\"[\\d.]+\",\"[\\d.]+\",\"[\\d.]+\",\"([\\d.]+)\"")
                .matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("cannot read redis-benchmark output:\n" + output);
        }
        double rps = Double.parseDouble(m.group(1));
        return new Bench.Row("(c) redis-benchmark -t get", threads, Math.round(rps * 100), 100,
                Math.round(Double.parseDouble(m.group(2)) * 1000));
    }
}
