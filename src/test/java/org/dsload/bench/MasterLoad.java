package org.dsload.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordMode;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;

/**
 * What a distributed run costs the master, by recording mode: test-plans/ekv-profile-get.jmx (GET of
 * 100-byte values) on 2 local jmeter-server slaves, in rows mode with each of JMeter's sample sender
 * modes and in histograms mode. Over a window after the warm-up the master process's CPU time (utime +
 * stime of /proc/<pid>/stat) and the bytes it read (rchar of /proc/<pid>/io: the samples arriving over
 * RMI, little else) are divided by the GETs the server answered in the same window. Then histograms
 * mode on the master alone with 2N threads against 2 slaves with N each, the (c) ratio of the brief:
 * slaves that send only a row per label and second should carry about what one engine does.
 *
 * <p>Settings: {@code bench.threads} (N, default 25), {@code bench.seconds} (window, default 15),
 * {@code bench.warmup} (default 5), {@code bench.only=c} for the (c) ratio alone.
 */
final class MasterLoad {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final int PROFILES = DistributedBenchmark.PROFILES;
    private static final String GET = "GET profile";

    private MasterLoad() {
    }

    record Config(String name, int slaves, int threadsPerEngine, String mode, RecordMode record) {
    }

    record Cost(Config config, double getsPerSecond, double cpuMillisPer1000, double bytesPer1000, long p99Micros) {
    }

    static void main(String[] args) throws Exception {
        int threads = Bench.ints(System.getProperty("bench.threads", "25")).get(0);
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Bench.warmup(5);
        List<Config> configs = new ArrayList<>();
        // bench.only=c: the (c) ratio alone, without the sender modes
        if (!"c".equals(System.getProperty("bench.only"))) {
            for (String mode : List.of("StrippedBatch", "Batch", "StrippedAsynch", "Asynch", "Statistical", "Standard")) {
                configs.add(new Config("2 slaves, rows", 2, threads, mode, RecordMode.ROWS));
            }
        }
        configs.add(new Config("2 slaves, histograms", 2, threads, "StrippedBatch", RecordMode.HISTOGRAMS));
        configs.add(new Config("master alone, histograms", 0, 2 * threads, "-", RecordMode.HISTOGRAMS));
        List<Cost> costs = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            DistributedBenchmark.preload(redis);
            for (Config c : configs) {
                Cost cost = measure(redis, c, warmup, seconds);
                System.out.println("measured: " + line(cost));
                costs.add(cost);
            }
        }
        StringBuilder table = new StringBuilder();
        table.append("| engines                  | sender mode    | threads | GETs/s   | master CPU ms / 1000 | master bytes read / 1000 | p99       |\n");
        table.append("|--------------------------|----------------|---------|----------|----------------------|--------------------------|-----------|\n");
        for (Cost c : costs) {
            table.append(String.format(Locale.ROOT, "| %-24s | %-14s | %7d | %8.0f | %20s | %24s | %9s |%n", c.config().name(),
                    c.config().mode(), c.config().threadsPerEngine() * Math.max(1, c.config().slaves()), c.getsPerSecond(),
                    c.config().slaves() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", c.cpuMillisPer1000()),
                    c.config().slaves() == 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", c.bytesPer1000()),
                    c.p99Micros() < 0 ? "n/a" : org.dsload.report.Durations.format(c.p99Micros() / 1000.0)));
        }
        // (c) again in the opposite order: the machine's other load drifts between rows
        List<Cost> again = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            DistributedBenchmark.preload(redis);
            for (Config c : List.of(configs.get(configs.size() - 1), configs.get(configs.size() - 2))) {
                Cost cost = measure(redis, c, warmup, seconds);
                System.out.println("measured again: " + line(cost));
                again.add(cost);
            }
        }
        double slaves = (costs.get(costs.size() - 2).getsPerSecond() + again.get(1).getsPerSecond()) / 2;
        double alone = (costs.get(costs.size() - 1).getsPerSecond() + again.get(0).getsPerSecond()) / 2;
        String ratio = String.format(Locale.ROOT, "(c) 2 slaves x %d / master alone x %d, both histograms mode, means of "
                + "2 rounds (%.0f and %.0f, %.0f and %.0f GETs/s): %.3f", threads, 2 * threads,
                costs.get(costs.size() - 2).getsPerSecond(), again.get(1).getsPerSecond(),
                costs.get(costs.size() - 1).getsPerSecond(), again.get(0).getsPerSecond(), slaves / alone);
        System.out.println();
        System.out.println("Redis GET of " + PROFILES + " 100-byte values, " + warmup + " s warm-up then " + seconds
                + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by redis-server, the master and the slaves");
        System.out.print(table);
        System.out.println(ratio);
        Path out = Checkout.target().resolve("bench-results").resolve("master-load.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table + ratio + "\n", StandardCharsets.UTF_8);
    }

    /** The master's CPU time (ms) and bytes read so far, from /proc, redis-server's GETs, and the clock's ms. */
    record Reading(long cpuMillis, long bytesRead, long gets, long atMillis) {
        static Reading of(ProcessHandle master, EmbeddedRedis redis) throws IOException {
            String stat = Files.readString(Path.of("/proc", Long.toString(master.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            long rchar = 0;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(master.pid()), "io"))) {
                if (line.startsWith("rchar:")) {
                    rchar = Long.parseLong(line.substring(6).trim());
                }
            }
            return new Reading(ticks * 1000 / CLOCK_TICKS, rchar, RedisCalls.of(redis, "GET"), System.currentTimeMillis());
        }
    }

    /** The headless JMeter master among this JVM's child processes. */
    static ProcessHandle master() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("ApacheJMeter")
                        && p.info().commandLine().orElse("").contains(" -n "))
                .findFirst().orElseThrow();
    }

    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
    private static final long CLOCK_TICKS = 100;

    private static Cost measure(EmbeddedRedis redis, Config c, int warmup, int seconds) throws Exception {
        RedisCalls.reset(redis);
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).dashboard(false)
                .runId("master-load-" + c.slaves() + "-" + c.mode().replace("-", "local") + "-" + c.record().value())
                .localSlaves(c.slaves()).slaveHeap("1g").remoteDir(Checkout.target().resolve("rmi"))
                .timeout(Duration.ofSeconds(warmup + seconds + 300))
                .property("hosts", redis.address()).property("threads", Integer.toString(c.threadsPerEngine()))
                .property("duration", Integer.toString(warmup + seconds + 3)).property("rampup", "0")
                .property("profiles", Integer.toString(PROFILES)).property("load_threads", "0")
                .property(RunProperties.RECORD, c.record().value());
        if (c.slaves() > 0) {
            run.property("mode", c.mode());
        }
        AtomicReference<Reading[]> window = new AtomicReference<>();
        Thread watcher = new Thread(() -> {
            try {
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (System.nanoTime() < deadline && RedisCalls.of(redis, "GET") == 0) {
                    Thread.sleep(50);
                }
                Thread.sleep(warmup * 1000L);
                ProcessHandle master = master();
                Reading first = Reading.of(master, redis);
                Thread.sleep(seconds * 1000L);
                window.set(new Reading[] {first, Reading.of(master, redis)});
            } catch (Exception e) {
                System.out.println("no reading of " + c + ": " + e);
            }
        }, "master-watch");
        watcher.start();
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        watcher.join();
        if (!outcome.ok() || window.get() == null) {
            throw new IllegalStateException(c + " failed: " + outcome.problem());
        }
        Reading a = window.get()[0];
        Reading b = window.get()[1];
        long gets = Math.max(1, b.gets() - a.gets());
        double span = (b.atMillis() - a.atMillis()) / 1000.0;
        long p99 = outcome.summary() == null || outcome.summary().label(GET) == null ? -1
                : outcome.summary().label(GET).latencies().percentile(99);
        return new Cost(c, gets / span, (b.cpuMillis() - a.cpuMillis()) * 1000.0 / gets,
                (b.bytesRead() - a.bytesRead()) * 1000.0 / gets, p99);
    }

    private static String line(Cost c) {
        return String.format(Locale.ROOT, "%s %s: %.0f GETs/s, master %.1f CPU ms and %.0f bytes per 1000 GETs",
                c.config().name(), c.config().mode(), c.getsPerSecond(), c.cpuMillisPer1000(), c.bytesPer1000());
    }
}
