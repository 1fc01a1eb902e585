package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.Payloads;
import org.dsload.process.JMeterJvm;
import org.dsload.report.ExactHistogram;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedCassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/**
 * Does JMeter with the dsload CQL sampler drive Cassandra as hard as a plain java-driver 4
 * program? Same embedded node, same table and keys, the same prepared write (100-byte value) and
 * read by key alternating, the same driver settings, the same concurrency, one after the other,
 * each in a JVM of its own with the same heap, measured over the same window after a warm-up:
 * <ul>
 * <li>(a) JMeter 5.6.3 running a plan of two dsload CQL Requests (results file written);</li>
 * <li>(a0) the same without a results file, to show what writing it costs;</li>
 * <li>(ak) JMeter with N/k threads, each sample sending k requests at once (Requests in flight), the
 * same N requests outstanding;</li>
 * <li>(b) {@link PlainCqlLoop} sync: N threads, each waiting for its response;</li>
 * <li>(c) {@link PlainCqlLoop} async: one thread keeping N requests in flight.</li>
 * </ul>
 * The node is first driven for 30 s by the async loop, unmeasured, so that no row pays for its warm-up.
 * System properties: {@code bench.threads} (default 16,50), {@code bench.seconds} measured per
 * row (default 15), {@code bench.warmup} seconds (default 10), {@code bench.keys} (10000).
 *
 * <p>With {@code -Dbench.props="inflight=2x32"} it measures requests in flight instead
 * ({@link CassandraInFlightComparison}): YCSB workload A with 2 threads of 32 requests in flight against a
 * plain executeAsync loop with 64 outstanding.
 */
public final class CassandraBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String PLAN = "src/test/resources/org/dsload/bench/cql-read-write.jmx";
    private static final int SERVER_WARMUP_SECONDS = 30;

    private CassandraBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        if (System.getProperty("bench.inflight") != null) {
            CassandraInFlightComparison.run();
            return;
        }
        List<Integer> threadCounts = Bench.threads("16,50");
        int seconds = Integer.getInteger("bench.seconds", 15);
        // JMeter and the driver need longer than a bare loop to reach full speed on two busy cores.
        int warmup = Bench.warmup(10);
        int keys = Integer.getInteger("bench.keys", 10_000);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> ratios = new ArrayList<>();
        String started;
        try (EmbeddedCassandra cassandra = EmbeddedCassandra.start()) {
            started = String.format(Locale.ROOT, "Cassandra node ready in %.1f s, %d MiB resident",
                    cassandra.startTime().toMillis() / 1000.0, cassandra.residentBytes() >> 20);
            load(cassandra, keys);
            // A fresh node compiles its hot paths and flushes the load during its first minute; without
            // this the first row measured would pay for it.
            plainLoop(cassandra, "async", 16, 0, SERVER_WARMUP_SECONDS, keys);
            for (int threads : threadCounts) {
                Bench.Row jmeter = jmeter(cassandra, threads, 1, warmup, seconds, keys);
                Bench.Row bare = jmeterWithoutResults(cassandra, threads, warmup, seconds, keys);
                int k = inFlight(threads);
                Bench.Row batched = jmeter(cassandra, threads / k, k, warmup, seconds, keys);
                Bench.Row sync = plainLoop(cassandra, "sync", threads, warmup, seconds, keys);
                Bench.Row async = plainLoop(cassandra, "async", threads, warmup, seconds, keys);
                rows.addAll(List.of(jmeter, bare, batched, sync, async));
                ratios.add(String.format(Locale.ROOT, "threads %3d: a/b = %.3f, a/c = %.3f, a0/b = %.3f, a%d/b = %.3f, a%d/c = %.3f",
                        threads, jmeter.throughput() / sync.throughput(), jmeter.throughput() / async.throughput(),
                        bare.throughput() / sync.throughput(), k, batched.throughput() / sync.throughput(), k,
                        batched.throughput() / async.throughput()));
            }
            started += String.format(Locale.ROOT, ", %d MiB at the end", cassandra.residentBytes() >> 20);
        }
        System.out.println();
        System.out.println("CQL prepared write (100-byte value) and read by key, alternating, " + keys + " keys, "
                + warmup + " s warm-up then " + seconds + " s measured per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by Cassandra and the load generator; " + started);
        System.out.print(Bench.table(rows));
        ratios.forEach(System.out::println);
    }

    /** Creates bench.kv and writes every key once, so reads find their rows. */
    private static void load(EmbeddedCassandra cassandra, int keys) throws Exception {
        try (CqlSession session = cassandra.session(null)) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE IF NOT EXISTS bench.kv (k text PRIMARY KEY, v text)");
            PreparedStatement insert = session.prepare("INSERT INTO bench.kv (k, v) VALUES (?, ?)");
            Semaphore inFlight = new Semaphore(64);
            List<CompletableFuture<?>> pending = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                inFlight.acquire();
                String value = new String(Payloads.of(100, java.util.concurrent.ThreadLocalRandom.current()),
                        StandardCharsets.US_ASCII);
                pending.add(session.executeAsync(insert.bind("k" + i, value)).toCompletableFuture()
                        .whenComplete((r, e) -> inFlight.release()));
            }
            CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).get();
        }
    }

    /** Requests per sample for the (ak) row: a small divisor of the concurrency. */
    private static int inFlight(int threads) {
        for (int k : new int[] {4, 5, 3, 2}) {
            if (threads % k == 0 && threads > k) {
                return k;
            }
        }
        return 1;
    }

    /** (a) and (ak): the samples of the JTL that started inside the measured window, each counting its requests. */
    private static Bench.Row jmeter(EmbeddedCassandra cassandra, int threads, int inFlight, int warmup, int seconds,
            int keys) throws Exception {
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve(PLAN))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("cassandra-jmeter-" + threads + "x" + inFlight)
                .dashboard(false).timeout(Duration.ofSeconds(warmup + seconds + 180L))
                .property("hosts", cassandra.address()).property("threads", Integer.toString(threads))
                .property("concurrent", Integer.toString(inFlight))
                .property("duration", Integer.toString(warmup + seconds)).property("keys", Integer.toString(keys));
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(outcome.jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                first = Math.min(first, s.start());
            }
        }
        long from = first + warmup * 1000L;
        long to = from + seconds * 1000L;
        ExactHistogram micros = new ExactHistogram();
        long ops = 0;
        long errors = 0;
        try (JtlReader reader = new JtlReader(outcome.jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.start() >= from && s.start() < to) {
                    ops += s.sampleCount();
                    micros.record(s.elapsedMicros());
                    if (!s.success()) {
                        errors++;
                    }
                }
            }
        }
        if (errors > 0) {
            System.out.println("(a) at " + threads + " threads: " + errors + " failed samples in the window");
        }
        if (inFlight > 1) {
            // the p99 of a sample is that of the slowest of its requests, so it is not shown
            return new Bench.Row("(a" + inFlight + ") same, " + threads + " threads x " + inFlight + " in flight",
                    threads * inFlight, ops, seconds, -1);
        }
        return Bench.row("(a) JMeter + dsload CQL sampler", threads, ops, seconds, micros);
    }


    /** (a0): no results file; the rate from the summariser's 5 s lines after the warm-up. */
    private static Bench.Row jmeterWithoutResults(EmbeddedCassandra cassandra, int threads, int warmup, int seconds,
            int keys) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-jar", Bench.jmeterLauncher().toString(), "-n", "-t", Checkout.basedir().resolve(PLAN).toString(),
                "-j", Checkout.target().resolve("bench-results/cassandra-bare-" + threads + ".log").toString(),
                "-Jsummariser.interval=5", "-Jhosts=" + cassandra.address(), "-Jthreads=" + threads,
                "-Jduration=" + (warmup + seconds), "-Jkeys=" + keys));
        String output = Bench.command(command, warmup + seconds + 180L);
        return Bench.fromSummariser("(a0) same, no results file", threads, output, warmup);
    }


    private static Bench.Row plainLoop(EmbeddedCassandra cassandra, String mode, int threads, int warmup, int seconds,
            int keys) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                PlainCqlLoop.class.getName(), cassandra.host(), Integer.toString(cassandra.port()), mode,
                Integer.toString(threads), Integer.toString(warmup), Integer.toString(seconds), Integer.toString(keys)));
        String tool = mode.equals("sync") ? "(b) java-driver 4 loop, sync threads" : "(c) java-driver 4 loop, async";
        return Bench.plainLoopRow(tool, threads, Bench.command(command, warmup + seconds + 120L));
    }
}
