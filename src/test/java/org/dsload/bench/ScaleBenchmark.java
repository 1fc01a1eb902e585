package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordMode;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;

/**
 * docs/scale.md's model against a run with many slaves: test-plans/redis-get-rate.jmx on
 * {@code bench.slaves} local jmeter-server slaves (small heaps, histograms mode, one label, no
 * warm-up) at {@code bench.rate} GETs/s each. JMeter's master starts its slaves one after the
 * other; from the start of the last one until the master ends it reads, each second, the master
 * process's CPU time (utime + stime of /proc/<pid>/stat) and the bytes it read (rchar of
 * /proc/<pid>/io), prints them every 5 s, and prints their rate over the measured window
 * ({@code bench.seconds} from {@code bench.warmup} seconds after that start) beside what the model
 * predicts for that many rows a second: the master's own once-a-second work plus, per row, what a row of rows mode costs it.
 *
 * <pre>./mvnw verify -Pbenchmark -Dbench.class=ScaleBenchmark [-Dbench.props="slaves=8 rate=100 seconds=20 warmup=10"]</pre>
 */
public final class ScaleBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    /** The model's figures (docs/scale.md): the master's own work per second, and a row's CPU and bytes. */
    static final double OWN_MILLIS_PER_SECOND = 5;
    static final double ROW_MILLIS = 0.045;
    static final double ROW_BYTES = 1_220;
    /** Seconds the last engine may start after the first, for the window to lie in every engine's run. */
    private static final int START_ALLOWANCE = 90;

    private static final String RUN_ID = "scale-slaves-";
    /** What JMeter's master logs once it has started every slave's engine. */
    private static final String ALL_STARTED = "Remote engines have been started";

    private ScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        int slaves = Integer.getInteger("bench.slaves", 8);
        int rate = Integer.getInteger("bench.rate", 100);
        int seconds = Integer.getInteger("bench.seconds", 20);
        int warmup = Integer.getInteger("bench.warmup", 10);
        String heap = System.getProperty("bench.heap", "192m");
        String runId = RUN_ID + slaves + "-" + System.currentTimeMillis();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            RedisCalls.reset(redis);
            PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/redis-get-rate.jmx"))
                    .resultsRoot(Checkout.target().resolve("bench-results")).dashboard(false)
                    .runId(runId).localSlaves(slaves).slaveHeap(heap)
                    .remoteDir(Checkout.target().resolve("rmi"))
                    .timeout(Duration.ofSeconds(warmup + seconds + 600))
                    .property("hosts", redis.address()).property("rate", Integer.toString(rate))
                    // every engine runs this long from its own start, and the engines start one after another
                    .property("duration", Integer.toString(warmup + seconds + START_ALLOWANCE)).property("warmup", "0")
                    .property(RunProperties.RECORD, RecordMode.HISTOGRAMS.value());
            List<MasterLoad.Reading> readings = new CopyOnWriteArrayList<>();
            Thread watcher = new Thread(() -> {
                try {
                    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                    Path log = Checkout.target().resolve("bench-results").resolve(runId).resolve("jmeter.log");
                    while (System.nanoTime() < deadline && !(Files.exists(log)
                            && Files.readString(log, StandardCharsets.ISO_8859_1).contains(ALL_STARTED))) {
                        Thread.sleep(200);
                    }
                    ProcessHandle master = MasterLoad.master();
                    // a reading a second from the last slave's start until the master ends
                    long next = System.currentTimeMillis();
                    while (master.isAlive()) {
                        readings.add(MasterLoad.Reading.of(master, redis));
                        next += 1000;
                        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
                    }
                } catch (Exception e) {
                    System.out.println("readings ended: " + e);
                }
            }, "master-watch");
            watcher.start();
            PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
            watcher.join();
            if (!outcome.ok() || readings.size() <= warmup + seconds) {
                throw new IllegalStateException("the run failed or was too short: " + outcome.problem() + ", "
                        + readings.size() + " readings");
            }
            MasterLoad.Reading first = readings.get(warmup);
            MasterLoad.Reading last = readings.get(warmup + seconds);
            long[] w = {last.cpuMillis() - first.cpuMillis(), last.bytesRead() - first.bytesRead(), last.gets() - first.gets(),
                    last.atMillis() - first.atMillis()};
            double span = w[3] / 1000.0;
            double cpuPerSecond = w[0] / span;
            double bytesPerSecond = w[1] / span;
            double getsPerSecond = w[2] / span;
            double rows = slaves; // one label: one row per engine and second
            double modelCpu = OWN_MILLIS_PER_SECOND + rows * ROW_MILLIS;
            double modelBytes = rows * ROW_BYTES;
            StringBuilder text = new StringBuilder();
            text.append(String.format(Locale.ROOT, "%d slaves (heap %s) x %d GETs/s, histograms mode, one label; %.1f s"
                    + " measured from %d s after the master started the last slave; %,.0f GETs/s counted by redis-server; %d cores shared by all%n", slaves, heap,
                    rate, span, warmup, getsPerSecond, Runtime.getRuntime().availableProcessors()));
            text.append("| figure | model | measured | measured / model |\n|---|---|---|---|\n");
            text.append(String.format(Locale.ROOT, "| master CPU, ms per second | %.2f | %.2f | %.2f |%n", modelCpu,
                    cpuPerSecond, cpuPerSecond / modelCpu));
            text.append(String.format(Locale.ROOT, "| master bytes read per second | %,.0f | %,.0f | %.2f |%n", modelBytes,
                    bytesPerSecond, bytesPerSecond / modelBytes));
            text.append("The master, every 5 s from the start of its last slave (CPU ms per second, bytes read per second):\n");
            for (int i = 5; i < readings.size(); i += 5) {
                MasterLoad.Reading a = readings.get(i - 5);
                MasterLoad.Reading b = readings.get(i);
                double s5 = (b.atMillis() - a.atMillis()) / 1000.0;
                text.append(String.format(Locale.ROOT, "  %3d-%3d s: %6.1f ms/s %,9.0f B/s%s%n", i - 5, i,
                        (b.cpuMillis() - a.cpuMillis()) / s5, (b.bytesRead() - a.bytesRead()) / s5,
                        i > warmup && i <= warmup + seconds ? "  (measured)" : ""));
            }
            text.append("summary: ").append(outcome.dir().resolve("summary.txt")).append('\n');
            System.out.println();
            System.out.print(text);
            Path out = Checkout.target().resolve("bench-results").resolve("scale-" + slaves + ".md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, text, StandardCharsets.UTF_8);
        }
    }
}
