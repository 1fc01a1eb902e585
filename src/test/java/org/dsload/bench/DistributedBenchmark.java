package org.dsload.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.report.Durations;
import org.dsload.report.ExactHistogram;
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
 * How many samples a distributed run carries back to the master, on this machine: the same plan
 * (test-plans/ekv-profile-get.jmx, GET of 100-byte values, so the generator rather than the
 * server is the bottleneck) in the master alone, on 1 and on 2 local jmeter-server slaves, and on
 * 2 slaves with each of JMeter's sample sender modes. Every engine runs the same number of
 * threads. For each row: samples per second in the results file over the measured window, the
 * exact p99, and the share of the GETs the server answered that reached the results file as
 * rows (a mode that drops or merges samples shows here).
 *
 * <p>System properties: {@code bench.threads} (threads per engine; the first value is used,
 * default 10), {@code bench.seconds} measured per row (default 15), {@code bench.warmup} (5).
 * {@code -Dbench.props=part=recording} measures the recording modes instead ({@link MasterLoad}).
 */
public final class DistributedBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    static final int PROFILES = 10_000;

    private DistributedBenchmark() {
    }

    record Config(int slaves, String mode, boolean ssl) {
        String engines() {
            return slaves == 0 ? "master alone" : slaves + " slave" + (slaves > 1 ? "s" : "") + (ssl ? "" : ", no SSL");
        }
    }

    record Row(Config config, int threads, double samplesPerSecond, long p99Micros, long rows, long rowRequests,
            long serverGets) {
    }

    /** Two measurements of one configuration, taken in two rounds that run the configurations in opposite orders. */
    record Pair(Row first, Row second) {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        if ("recording".equals(System.getProperty("bench.part"))) {
            MasterLoad.main(args);
            return;
        }
        int threads = Bench.ints(System.getProperty("bench.threads", "10")).get(0);
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Integer.getInteger("bench.warmup", 5);
        List<Config> configs = List.of(new Config(0, "-", true), new Config(1, "StrippedBatch", true),
                new Config(1, "StrippedBatch", false), new Config(2, "StrippedBatch", true), new Config(2, "Standard", true),
                new Config(2, "Batch", true), new Config(2, "Asynch", true), new Config(2, "StrippedAsynch", true),
                new Config(2, "Statistical", true));
        // the machine's other load drifts: a second round in the opposite order shows how much
        java.util.Map<Config, Row> first = new java.util.LinkedHashMap<>();
        java.util.Map<Config, Row> second = new java.util.HashMap<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            preload(redis);
            for (Config config : configs) {
                first.put(config, measure(redis, config, threads, warmup, seconds));
                System.out.println("measured, round 1: " + line(first.get(config)));
            }
            List<Config> backwards = new ArrayList<>(configs);
            java.util.Collections.reverse(backwards);
            for (Config config : backwards) {
                second.put(config, measure(redis, config, threads, warmup, seconds));
                System.out.println("measured, round 2: " + line(second.get(config)));
            }
        }
        List<Pair> rows = new ArrayList<>();
        first.forEach((config, row) -> rows.add(new Pair(row, second.get(config))));
        String table = table(rows);
        System.out.println();
        System.out.println("Redis GET of " + PROFILES + " 100-byte values, " + threads + " threads per engine, " + warmup
                + " s warm-up then " + seconds + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by redis-server, the master and the slaves");
        System.out.print(table);
        Path out = Checkout.target().resolve("bench-results").resolve("distributed.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table, StandardCharsets.UTF_8);
    }

    /** 10,000 values of 100 bytes, keys 1:0 ... 1:9999, as the plan reads them. */
    static void preload(EmbeddedRedis redis) {
        String value = "v".repeat(100);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline p = jedis.pipelined();
            for (int i = 0; i < PROFILES; i++) {
                p.set("1:" + i, value);
            }
            p.sync();
        }
    }

    private static Row measure(EmbeddedRedis redis, Config config, int threads, int warmup, int seconds)
            throws IOException, InterruptedException {
        RedisCalls.reset(redis);
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).dashboard(false)
                .runId("distributed-" + config.slaves() + "-" + config.mode().replace("-", "local") + (config.ssl() ? "" : "-nossl"))
                .localSlaves(config.slaves()).slaveHeap("1g").remoteDir(Checkout.target().resolve("rmi"))
                .property("hosts", redis.address()).property("threads", Integer.toString(threads))
                .property("duration", Integer.toString(warmup + seconds)).property("rampup", "0")
                .property("profiles", Integer.toString(PROFILES)).property("load_threads", "0");
        if (config.slaves() > 0) {
            run.property("mode", config.mode());
        }
        if (!config.ssl()) {
            run.property("server.rmi.ssl.disable", "true");
        }
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException(config + " failed: " + outcome.problem());
        }
        long serverGets = RedisCalls.of(redis, "GET");
        return read(outcome.jtl(), config, threads, warmup, serverGets);
    }

    /** Samples per second from the first GET + warm-up to the last GET's start, and what reached the file. */
    static Row read(Path jtl, Config config, int threads, int warmup, long serverGets) throws IOException {
        List<JtlSample> gets = new ArrayList<>();
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals("GET profile")) {
                    gets.add(s);
                }
            }
        }
        long first = gets.stream().mapToLong(JtlSample::start).min().orElseThrow();
        long last = gets.stream().mapToLong(JtlSample::start).max().orElseThrow();
        long from = first + warmup * 1000L;
        long measured = 0;
        ExactHistogram micros = new ExactHistogram();
        boolean exact = true;
        for (JtlSample s : gets) {
            if (s.start() >= from) {
                measured += s.sampleCount();
                micros.record(s.elapsedMicros());
                exact &= s.sampleCount() == 1 && s.timedInMicros();
            }
        }
        long rowRequests = gets.stream().mapToLong(JtlSample::sampleCount).sum();
        double window = Math.max(1, last - from) / 1000.0;
        return new Row(config, threads, measured / window, exact ? micros.percentile(99) : -1, gets.size(), rowRequests,
                serverGets);
    }

    private static String line(Row r) {
        return String.format(Locale.ROOT, "%s: %.0f samples/s, p99 %s, %d rows, %.2f%% of GETs in rows",
                r.config().engines() + " " + r.config().mode(), r.samplesPerSecond(), p99(r), r.rows(),
                100.0 * r.rowRequests() / r.serverGets());
    }

    private static String p99(Row r) {
        return r.p99Micros() < 0 ? "n/a" : Durations.format(r.p99Micros() / 1000.0);
    }

    static String table(List<Pair> rows) {
        StringBuilder out = new StringBuilder();
        out.append("| engines              | sender mode    | threads | samples/s (round 1, 2) | p99 (round 1, 2)     "
                + "| GETs in rows | rows/GETs |\n");
        out.append("|----------------------|----------------|---------|------------------------|----------------------"
                + "|--------------|-----------|\n");
        for (Pair p : rows) {
            Row a = p.first();
            Row b = p.second();
            out.append(String.format(Locale.ROOT, "| %-20s | %-14s | %7d | %10.0f, %10.0f | %9s, %9s | %11.2f%% | %8.2f%% |%n",
                    a.config().engines(), a.config().mode(), a.threads() * Math.max(1, a.config().slaves()),
                    a.samplesPerSecond(), b.samplesPerSecond(), p99(a), p99(b),
                    100.0 * (a.rowRequests() + b.rowRequests()) / (a.serverGets() + b.serverGets()),
                    100.0 * (a.rows() + b.rows()) / (a.serverGets() + b.serverGets())));
        }
        return out.toString();
    }
}
