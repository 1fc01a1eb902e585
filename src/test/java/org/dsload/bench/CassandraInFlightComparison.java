package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.dsload.process.JMeterJvm;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedCassandra;

/**
 * Requests in flight on CQL against a plain asynchronous java-driver loop, back to back on one
 * Cassandra node: YCSB workload A on {@code records} loaded records, the same number of requests
 * outstanding (dsload: T threads x N in flight of test-plans/cassandra-ycsb.jmx, results file
 * written; {@link PlainCqlYcsbLoop}: one thread, executeAsync and a semaphore of T x N). Each round
 * runs dsload and the loop (which goes first alternates), each in a JVM of its own with the same
 * heap; throughput and p99 over
 * the measured window, and their ratio.
 *
 * <p>Settings ({@code -Dbench.props="inflight=2x32 rounds=2 records=10000 jfr=true"}); {@code
 * bench.seconds} and {@code bench.warmup} as for every benchmark.
 */
final class CassandraInFlightComparison {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String KEYSPACE = "ycsb_bench";
    private static final String PLAN = "test-plans/cassandra-ycsb.jmx";

    private CassandraInFlightComparison() {
    }

    static void run() throws Exception {
        String[] shape = System.getProperty("bench.inflight").split("x");
        int threads = Integer.parseInt(shape[0]);
        int perThread = Integer.parseInt(shape[1]);
        int rounds = Integer.getInteger("bench.rounds", 2);
        long records = Long.getLong("bench.records", 10_000);
        boolean jfr = Boolean.getBoolean("bench.jfr");
        int seconds = Integer.getInteger("bench.seconds", 15);
        // JMeter's JVM compiles far more code than the loop's: at 10 s on two busy cores its compiler
        // threads still took a third of a core in the measured window
        int warmup = Bench.warmup(25);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<String> costs = new ArrayList<>();
        String started;
        try (EmbeddedCassandra cassandra = EmbeddedCassandra.start()) {
            started = String.format(Locale.ROOT, "Cassandra node ready in %.1f s", cassandra.startTime().toMillis() / 1000.0);
            PlanRunner.Outcome loaded = new PlanRunner(QUIET).run(plan(cassandra, "load", 1, 16, records)
                    .property("load_threads", "4").property("operations", "1"));
            if (!loaded.ok()) {
                throw new IllegalStateException("loading the records failed: " + loaded.problem());
            }
            // a fresh node compiles its hot paths and flushes the load during its first minute
            reference(cassandra, threads * perThread, 0, 30, records);
            for (int round = 1; round <= rounds; round++) {
                int r = round;
                ProcessCpu.Round both = ProcessCpu.alternate(round, cassandra.pid(), warmup, seconds,
                        new ProcessCpu.Side("ApacheJMeter", () -> dsload(cassandra, threads, perThread, warmup, seconds,
                                records, r, jfr)),
                        new ProcessCpu.Side(PlainCqlYcsbLoop.class.getSimpleName(), () -> reference(cassandra,
                                threads * perThread, warmup, seconds, records)));
                Bench.Row dsload = both.dsload();
                Bench.Row loop = both.loop();
                costs.add(both.dsloadCost());
                costs.add(both.loopCost());
                ratios.add(dsload.throughput() / loop.throughput());
                rows.add(dsload);
                rows.add(loop);
                lines.add(String.format(Locale.ROOT, "round %d: throughput %.3fx, p99 %.2fx of the plain async loop",
                        round, dsload.throughput() / loop.throughput(), (double) dsload.p99Micros() / loop.p99Micros()));
            }
        }
        System.out.println();
        System.out.println("CQL YCSB workload A (read 0.5, update 0.5), " + records + " records, " + threads * perThread
                + " requests outstanding, " + warmup + " s warm-up then " + seconds + " s measured per row, "
                + Runtime.getRuntime().availableProcessors() + " cores shared by Cassandra and the load generator; "
                + started);
        System.out.print(Bench.table(rows));
        lines.forEach(System.out::println);
        costs.forEach(System.out::println);
        System.out.println(Bench.medianRatio("dsload / plain async loop, throughput", ratios));
    }

    private static PlanRun plan(EmbeddedCassandra cassandra, String id, int threads, int inFlight, long records) {
        return new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve(PLAN))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("cql-inflight-" + id)
                .dashboard(false).timeout(Duration.ofMinutes(10)).jvmArgs(JMeterJvm.heap("1g"))
                .property("hosts", cassandra.address()).property("keyspace", KEYSPACE)
                .property("recordcount", Long.toString(records)).property("consistency", "ONE")
                .property("threads", Integer.toString(threads)).property("in_flight", Integer.toString(inFlight))
                .property("server_gauges", "false").property("rampup", "0");
    }

    private static Bench.Row dsload(EmbeddedCassandra cassandra, int threads, int perThread, int warmup, int seconds,
            long records, int round, boolean jfr) throws Exception {
        String id = threads + "x" + perThread + "-" + round;
        PlanRun run = plan(cassandra, id, threads, perThread, records).property("load_threads", "0")
                .property("duration", Integer.toString(warmup + seconds));
        if (jfr) {
            Checkout.target().resolve("bench-results").toFile().mkdirs();
            run.jvmArgs(List.of("-Xms1g", "-Xmx1g", "-XX:StartFlightRecording=filename="
                    + Checkout.target().resolve("bench-results/cql-inflight-" + id + ".jfr") + ",settings=profile", "-XX:FlightRecorderOptions:stackdepth=256"));
        }
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        return Bench.measured("(a) dsload " + threads + " threads x " + perThread + " in flight", threads * perThread,
                outcome.jtl(), Set.of("READ", "UPDATE"), warmup, seconds);
    }

    private static Bench.Row reference(EmbeddedCassandra cassandra, int inFlight, int warmup, int seconds, long records)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        // Curator makes a logger per call; log4j's default context selector walks the stack for each,
        // a cost JMeter's logging set-up does not have: the reference is not to pay it either
        command.add("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.BasicContextSelector");
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                PlainCqlYcsbLoop.class.getName(), cassandra.host(), Integer.toString(cassandra.port()), KEYSPACE,
                Integer.toString(inFlight), Integer.toString(warmup), Integer.toString(seconds), Long.toString(records),
                "ONE"));
        return Bench.plainLoopRow("(b) java-driver executeAsync, " + inFlight + " permits", inFlight,
                Bench.command(command, warmup + seconds + 120L));
    }
}
