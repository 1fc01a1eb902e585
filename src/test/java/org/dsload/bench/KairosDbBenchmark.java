package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.process.JMeterJvm;
import org.dsload.report.ExactHistogram;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedKairosDb;

/**
 * S1's write path asked of the tool itself: does JMeter with the dsload write sampler push as
 * many points into KairosDB as a plain Java loop with the same HTTP client and the same batches?
 * One KairosDB on H2, same thread counts, one after the other in one run, each side in a JVM of
 * its own, each measured over the same window after a warm-up:
 * <ul>
 * <li>(a) test-plans/kairosdb-write.jmx in JMeter, unpaced, results file written;</li>
 * <li>(b) {@code org.dsload.kairosdb.PlainKairosDbLoop}: the same WriteBatch and KairosDbClient in a loop.</li>
 * </ul>
 * System properties: {@code bench.threads} (default 10,50), {@code bench.seconds} measured per
 * row (default 15), {@code bench.warmup} seconds (default 5); {@code -Dbench.props=in_flight=N}
 * runs (a) with N batches in flight per thread (default 1).
 */
public final class KairosDbBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String LABEL = "write batch";
    private static final long SETTLE_MILLIS = 5000;

    private KairosDbBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        List<Integer> threadCounts = Bench.threads("10,50");
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Bench.warmup(5);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.options().heap("768m").start()) {
            boolean jmeterFirst = true;
            for (int threads : threadCounts) {
                // KairosDB slows as its H2 database grows: alternate which side goes first, and let
                // its ingest queue drain before each row.
                Bench.Row jmeter;
                Bench.Row loop;
                if (jmeterFirst) {
                    jmeter = jmeter(kairos, threads, warmup, seconds);
                    loop = plainLoop(kairos, threads, warmup, seconds);
                } else {
                    loop = plainLoop(kairos, threads, warmup, seconds);
                    jmeter = jmeter(kairos, threads, warmup, seconds);
                }
                jmeterFirst = !jmeterFirst;
                rows.add(jmeter);
                rows.add(loop);
                ratios.add(String.format(Locale.ROOT, "threads %3d: a/b = %.3f", threads,
                        jmeter.throughput() / loop.throughput()));
            }
        }
        System.out.println();
        System.out.println("KairosDB (H2) writes of 25-metric batches, 1 point each, " + warmup + " s warm-up then "
                + seconds + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by KairosDB and the load generator; ops/s are data points/s");
        System.out.print(Bench.table(rows));
        ratios.forEach(System.out::println);
    }

    private static void settle() throws InterruptedException {
        Thread.sleep(SETTLE_MILLIS);
    }

    /** (a): the points of the JTL's write samples that started inside the measured window. */
    private static Bench.Row jmeter(EmbeddedKairosDb kairos, int threads, int warmup, int seconds) throws Exception {
        settle();
        String inFlight = System.getProperty("bench.in_flight", "1");
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/kairosdb-write.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("kairosdb-jmeter-" + threads)
                .dashboard(false).timeout(Duration.ofSeconds(warmup + seconds + 180L))
                .property("urls", kairos.url()).property("threads", Integer.toString(threads))
                .property("ramp_step", "0").property("repeats", "-1").property("paced", "false")
                .property("duration", Integer.toString(warmup + seconds)).property("cross_check", "false")
                .property("in_flight", inFlight);
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(outcome.jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals(LABEL)) {
                    first = Math.min(first, s.start());
                }
            }
        }
        long from = first + warmup * 1000L;
        long to = from + seconds * 1000L;
        ExactHistogram micros = new ExactHistogram();
        long points = 0;
        long failed = 0;
        try (JtlReader reader = new JtlReader(outcome.jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.label().equals(LABEL) && s.start() >= from && s.start() < to) {
                    if (s.success()) {
                        points += s.sampleCount();
                    } else {
                        failed++;
                    }
                    micros.record(s.elapsedMicros());
                }
            }
        }
        if (failed > 0) {
            System.out.println("(a) " + threads + " threads: " + failed + " failed batches in the window");
        }
        String name = inFlight.equals("1") ? "(a) JMeter + dsload write sampler"
                : "(a) JMeter + dsload write sampler, " + inFlight + " in flight";
        return Bench.row(name, threads, points, seconds, micros);
    }

    private static Bench.Row plainLoop(EmbeddedKairosDb kairos, int threads, int warmup, int seconds)
            throws Exception {
        settle();
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                "org.dsload.kairosdb.PlainKairosDbLoop", kairos.url(), Integer.toString(threads),
                Integer.toString(warmup), Integer.toString(seconds)));
        return Bench.plainLoopRow("(b) plain loop, same client + batches", threads,
                Bench.command(command, warmup + seconds + 120L));
    }
}
