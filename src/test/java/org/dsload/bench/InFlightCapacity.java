package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.GeneratorMetrics;
import org.dsload.report.GeneratorCsv;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.process.Ports;
import org.dsload.testing.RedisCalls;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Many requests in flight in one engine: test-plans/ekv-profile-get.jmx with T threads x N in
 * flight (one connection per request, as redis-benchmark counts -c) in a JMeter JVM with a
 * 512 MiB heap, against a redis-server that accepts that many clients. Prints the requests the
 * engine held in flight at its peak (its generator figure {@code dsload.requests.in_flight}), its
 * heap and GC time, the outcome of every request, and the server's count of GETs against the
 * requests the results file reports.
 *
 * <p>{@code -Dbench.props="capacity=4x2500 pipeline=1"}; {@code bench.seconds} (15).
 */
final class InFlightCapacity {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private InFlightCapacity() {
    }

    /** Settings from {@code bench.capacity} and {@code bench.pipeline}. */
    static void run() throws Exception {
        String[] shape = System.getProperty("bench.capacity").split("x");
        int threads = Integer.parseInt(shape[0]);
        int perThread = Integer.parseInt(shape[1]);
        String pipeline = System.getProperty("bench.pipeline", "1");
        int seconds = Integer.getInteger("bench.seconds", 15);
        int total = threads * perThread;
        List<String> server = List.of("--maxclients", Integer.toString(total + 1000), "--tcp-backlog", "4096");
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", Ports.free(), server)) {
            load(redis, 10_000);
            RedisCalls.reset(redis);
            PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                    .resultsRoot(Checkout.target().resolve("bench-results")).runId("redis-capacity-" + threads + "x" + perThread)
                    .dashboard(false).timeout(Duration.ofSeconds(seconds + 240)).jvmArgs(List.of("-Xms512m", "-Xmx512m"))
                    .property("hosts", redis.address()).property("threads", Integer.toString(threads))
                    .property("in_flight", Integer.toString(perThread)).property("pipeline", pipeline)
                    .property("duration", Integer.toString(seconds)).property("profiles", "10000")
                    .property("load_threads", "0").property("rampup", "0").property("socket_timeout", "10000")
                    .property("connect_timeout", "10000");
            PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
            if (!outcome.ok()) {
                throw new IllegalStateException("JMeter run failed: " + outcome.problem());
            }
            long served = RedisCalls.of(redis, "GET");
            Map<String, Long> codes = new TreeMap<>();
            long reported = 0;
            try (JtlReader reader = new JtlReader(outcome.jtl())) {
                JtlSample s;
                while ((s = reader.next()) != null) {
                    if (s.label().equals("GET profile")) {
                        reported += s.sampleCount();
                        codes.merge(s.responseCode(), (long) s.sampleCount(), Long::sum);
                    }
                }
            }
            GeneratorCsv.Engine engine = GeneratorCsv.read(outcome.dir()).get(0);
            LabelStatsLine line = new LabelStatsLine(outcome);
            System.out.println();
            System.out.printf(Locale.ROOT, "%d threads x %d in flight (pipeline depth %s), %d s, JMeter heap 512 MiB, "
                    + "%d cores shared with redis-server%n", threads, perThread, pipeline, seconds,
                    Runtime.getRuntime().availableProcessors());
            System.out.printf(Locale.ROOT, "in flight at the peak: %.0f; connections at the peak: %.0f%n",
                    engine.peak(GeneratorMetrics.REQUESTS_IN_FLIGHT), engine.peak(GeneratorCsv.CONNECTIONS));
            System.out.printf(Locale.ROOT, "heap used at the peak: %.0f MiB; GC time during the run: %.0f ms%n",
                    engine.peak(GeneratorCsv.HEAP_USED) / (1 << 20), engine.last(GeneratorCsv.GC_TIME) - first(engine));
            System.out.println("requests: " + line.text() + "; codes " + codes);
            System.out.println("server GETs " + served + ", results file " + reported + " requests: "
                    + (served == reported ? "equal, none lost" : "differ by " + (reported - served)));
        }
    }

    private static double first(GeneratorCsv.Engine engine) {
        List<GeneratorCsv.Point> gc = engine.series(GeneratorCsv.GC_TIME);
        return gc.isEmpty() ? 0 : gc.get(0).value();
    }

    /** Throughput and latency of the GETs, as the summary prints them. */
    private record LabelStatsLine(PlanRunner.Outcome outcome) {
        String text() {
            var get = outcome.summary().label("GET profile");
            return String.format(Locale.ROOT, "%d, %.0f/s, p50 %d µs, p99 %d µs", get.requests(), get.rate(),
                    get.latencies().percentile(50), get.latencies().percentile(99));
        }
    }

    /** Loads the profiles ekv-profile-get.jmx reads (keys 1:0 ...), 100 bytes each. */
    static void load(EmbeddedRedis redis, int keys) {
        byte[] value = "v".repeat(100).getBytes(StandardCharsets.US_ASCII);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline pipe = jedis.pipelined();
            for (int i = 0; i < keys; i++) {
                pipe.set(("1:" + i).getBytes(StandardCharsets.US_ASCII), value);
            }
            pipe.sync();
        }
    }
}
