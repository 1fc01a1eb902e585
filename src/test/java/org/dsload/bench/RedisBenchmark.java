package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.report.ExactHistogram;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.JMeterJvm;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.testing.Build;
import org.dsload.testing.EmbeddedRedis;

/**
 * S3's question asked of the tool itself: does JMeter with the dsload sampler drive a
 * Redis-protocol store as hard as a plain Jedis loop? Same embedded redis-server, same keys and
 * values, same pool settings, same thread counts, one after the other in one run, each in a JVM
 * of its own with the same heap, each measured over the same window after a warm-up:
 * <ul>
 * <li>(a) test-plans/ekv-profile-get.jmx in JMeter, results file written (as in every real run);</li>
 * <li>(a0) the same without a results file, to show what writing it costs;</li>
 * <li>(b) {@link PlainRedisLoop}: a plain Java loop over the same RedisClient settings;</li>
 * <li>(c) redis-benchmark -t get, when it is installed.</li>
 * </ul>
 * System properties: {@code bench.threads} (default 10,50,100), {@code bench.seconds} measured
 * per row (default 15), {@code bench.warmup} seconds (default 5), {@code bench.profiles} (10000).
 *
 * <p>With {@code -Dbench.props="inflight=2x25"} it measures requests in flight instead
 * ({@link InFlightComparison}): dsload with 2 threads of 25 requests in flight against
 * redis-benchmark with 50 connections, on 100-byte values; with {@code capacity=4x2500}, how many
 * one engine holds in flight ({@link InFlightCapacity}); with {@code down=10x1}, what threads do
 * when the server goes away ({@link ServerDownRun}).
 */
public final class RedisBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private RedisBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        java.util.Map<String, String> props = Bench.props();
        if (props.containsKey("inflight")) {
            InFlightComparison.run(props);
            return;
        }
        if (props.containsKey("capacity")) {
            InFlightCapacity.run(props);
            return;
        }
        if (props.containsKey("down")) {
            ServerDownRun.run(props);
            return;
        }
        List<Integer> threadCounts = Bench.threads("10,50,100");
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Bench.warmup(5);
        int profiles = Integer.getInteger("bench.profiles", 10_000);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRunner.Outcome loaded = plan(redis, 1, 1, profiles, "1", "load");
            if (!loaded.ok()) {
                throw new IllegalStateException("loading the profiles failed: " + loaded.problem());
            }
            for (int threads : threadCounts) {
                Bench.Row jmeter = jmeter(redis, threads, warmup, seconds, profiles);
                Bench.Row bare = jmeterWithoutResults(redis, threads, warmup, seconds, profiles);
                Bench.Row loop = plainLoop(redis, threads, warmup, seconds, profiles);
                rows.add(jmeter);
                rows.add(bare);
                rows.add(loop);
                if (Bench.onPath("redis-benchmark")) {
                    rows.add(redisBenchmark(redis, threads, seconds, loop.throughput()));
                }
                ratios.add(String.format(Locale.ROOT, "threads %3d: a/b = %.3f, a0/b = %.3f", threads,
                        jmeter.throughput() / loop.throughput(), bare.throughput() / loop.throughput()));
            }
        }
        System.out.println();
        System.out.println("Redis GET of " + profiles + " profiles (16 B to 16 KB), " + warmup + " s warm-up then "
                + seconds + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by redis-server and the load generator");
        System.out.print(Bench.table(rows));
        ratios.forEach(System.out::println);
        if (!Bench.onPath("redis-benchmark")) {
            System.out.println("(redis-benchmark is not installed: rows (c) skipped)");
        }
    }

    private static PlanRun planRun(EmbeddedRedis redis, int threads, int seconds, int profiles, String loadThreads,
            String id) {
        return new PlanRun(Build.jmeterHome(), Build.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Build.target().resolve("bench-results")).runId("redis-" + id)
                .dashboard(false).timeout(Duration.ofSeconds(seconds + 180))
                .property("hosts", redis.address()).property("threads", Integer.toString(threads))
                .property("duration", Integer.toString(seconds)).property("profiles", Integer.toString(profiles))
                .property("load_threads", loadThreads).property("rampup", "0");
    }

    private static PlanRunner.Outcome plan(EmbeddedRedis redis, int threads, int seconds, int profiles,
            String loadThreads, String id) throws Exception {
        return new PlanRunner(QUIET).run(planRun(redis, threads, seconds, profiles, loadThreads, id));
    }

    /** (a): the GET samples of the JTL that started inside the measured window. */
    private static Bench.Row jmeter(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles)
            throws Exception {
        PlanRunner.Outcome outcome = plan(redis, threads, warmup + seconds, profiles, "0", "jmeter-" + threads);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        return measured("(a) JMeter + dsload sampler", threads, outcome.jtl(), "GET profile", warmup, seconds);
    }

    /**
     * A row from the requests of one label in a results file that started inside the measured
     * window: from the warm-up's end after the label's first start, for the given seconds.
     */
    static Bench.Row measured(String tool, int threads, Path jtl, String label, int warmup, int seconds)
            throws java.io.IOException {
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals(label)) {
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
                if (s.label().equals(label) && s.start() >= from && s.start() < to) {
                    ops += s.sampleCount();
                    micros.record(s.elapsedMicros());
                }
            }
        }
        return Bench.row(tool, threads, ops, seconds, micros);
    }

    /** (a0): no results file; the rate from the summariser's 5 s lines after the warm-up. */
    private static Bench.Row jmeterWithoutResults(EmbeddedRedis redis, int threads, int warmup, int seconds,
            int profiles) throws Exception {
        PlanRun run = planRun(redis, threads, warmup + seconds, profiles, "0", "bare-" + threads);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-jar", Bench.jmeterLauncher().toString(), "-n", "-t", run.plan().toString(),
                "-j", Build.target().resolve("bench-results/redis-bare-" + threads + ".log").toString(),
                "-Jsummariser.interval=5", "-Jhosts=" + redis.address(), "-Jthreads=" + threads,
                "-Jduration=" + (warmup + seconds), "-Jprofiles=" + profiles, "-Jload_threads=0", "-Jrampup=0"));
        String output = Bench.command(command, warmup + seconds + 180L);
        return Bench.fromSummariser("(a0) same, no results file", threads, output, warmup);
    }


    private static Bench.Row plainLoop(EmbeddedRedis redis, int threads, int warmup, int seconds, int profiles)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                PlainRedisLoop.class.getName(), redis.host(), Integer.toString(redis.port()), Integer.toString(threads),
                Integer.toString(warmup), Integer.toString(seconds), Integer.toString(profiles)));
        String output = Bench.command(command, warmup + seconds + 120L);
        Matcher m = Pattern.compile("ops=(\\d+) seconds=([\\d.]+) p99us=(\\d+)").matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("plain loop failed:\n" + output);
        }
        return new Bench.Row("(b) plain Java loop, same RedisClient", threads, Long.parseLong(m.group(1)),
                Double.parseDouble(m.group(2)), Long.parseLong(m.group(3)));
    }

    static Bench.Row redisBenchmark(EmbeddedRedis redis, int threads, int seconds, double expectedRate)
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
