package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.process.JMeterJvm;
import org.dsload.report.LabelStats;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedInfluxDb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * S2 asked of the tool: InfluxDB writes at a constant rate, S2's two bodies in turn, measured from
 * the intended send time. One influxd (Debian's InfluxDB 1.6) started here, then back to back on
 * it: (a) test-plans/influxdb-write.jmx (dsload InfluxDB Write in flight, dsload Constant Arrival
 * Rate) and (b) vegeta's attack at the same rate and duration with the same bodies. Goals: late
 * arrivals at most 0.1 %, raw p99 at most 1.5 times vegeta's, corrected p99 at most 2 times
 * vegeta's, every sample timed in microseconds.
 * <p>
 * {@code -Dbench.seconds} (the profile's 15; S2's figures are of 60), {@code -Dbench.threads} (2), and
 * in {@code -Dbench.props}: {@code rate} (5000), {@code in_flight} (64 per thread), {@code connections}
 * (the connection element's Max connections per server; threads x in_flight), {@code vegeta}
 * (~/go/bin/vegeta), {@code jfr} (false; true records a JFR profile of the JMeter JVM beside its
 * results folder), {@code jvm} (more options of the JMeter JVM, separated by commas); {@code -Dbench.warmup}
 * (0): seconds of the plan's warm-up writes before its measured ones, under a label of their own.
 */
public final class InfluxDbBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String BODY1 = "cpu,host=server01,region=uswest value=1";
    private static final String BODY2 = "cpu,host=server02,region=useast value=2";

    private InfluxDbBenchmark() {
    }

    /** One side's figures, latencies in microseconds. */
    record Side(String tool, long requests, double rate, double success, long late, long p50, long p95, long p99,
            long max, long correctedP99, String note) {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        int rate = Integer.getInteger("bench.rate", 5000);
        int seconds = Integer.getInteger("bench.seconds", 60);
        int threads = Bench.threads("2").get(0);
        int inFlight = Integer.getInteger("bench.in_flight", 64);
        int connections = Integer.getInteger("bench.connections", threads * inFlight);
        String vegeta = System.getProperty("bench.vegeta", System.getProperty("user.home") + "/go/bin/vegeta");
        boolean jfr = Boolean.getBoolean("bench.jfr");
        if (EmbeddedInfluxDb.binary().isEmpty() || !Files.isExecutable(Path.of(vegeta))) {
            throw new IllegalStateException("needs influxd (" + EmbeddedInfluxDb.missingMessage() + ") and vegeta at " + vegeta);
        }
        List<Side> sides = new ArrayList<>();
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            influx.query(null, "CREATE DATABASE test");
            sides.add(dsload(influx, rate, seconds, threads, inFlight, connections, jfr));
            sides.add(vegeta(influx, vegeta, rate, seconds));
        }
        Side d = sides.get(0);
        Side v = sides.get(1);
        System.out.println();
        System.out.printf(Locale.ROOT, "InfluxDB 1.6 writes at %d/s for %d s, two bodies in turn, %d cores shared by "
                + "influxd and the load generator; latencies in µs%n", rate, seconds,
                Runtime.getRuntime().availableProcessors());
        System.out.println("tool                             requests    rate/s  success   late     p50     p95     p99"
                + "       max  corr.p99");
        for (Side s : sides) {
            System.out.printf(Locale.ROOT, "%-30s %10d %9.1f %7.3f%% %6d %7d %7d %7d %9d %9s%n", s.tool(), s.requests(),
                    s.rate(), s.success() * 100, s.late(), s.p50(), s.p95(), s.p99(), s.max(),
                    s.correctedP99() < 0 ? "-" : Long.toString(s.correctedP99()));
        }
        double latePct = d.requests() == 0 ? 100 : 100.0 * d.late() / d.requests();
        double raw = (double) d.p99() / v.p99();
        double corrected = (double) d.correctedP99() / v.p99();
        System.out.printf(Locale.ROOT, "late arrivals %.3f%% (goal <= 0.1%%): %s%n", latePct, latePct <= 0.1 ? "met" : "MISSED");
        System.out.printf(Locale.ROOT, "raw p99 dsload/vegeta = %.2f (goal <= 1.5): %s%n", raw, raw <= 1.5 ? "met" : "MISSED");
        System.out.printf(Locale.ROOT, "corrected p99 dsload / vegeta p99 = %.2f (goal <= 2): %s%n", corrected,
                corrected <= 2 ? "met" : "MISSED");
        System.out.println(d.note());
    }

    private static Side dsload(EmbeddedInfluxDb influx, int rate, int seconds, int threads, int inFlight, int connections,
            boolean jfr)
            throws Exception {
        List<String> jvm = new ArrayList<>(JMeterJvm.heap("1g"));
        Path results = Checkout.target().resolve("bench-results");
        String runId = "influxdb-" + rate + "-" + threads + "x" + inFlight;
        for (String option : System.getProperty("bench.jvm", "").split(",")) {
            if (!option.isBlank()) {
                jvm.add(option.trim());
            }
        }
        if (jfr) {
            Files.createDirectories(results);
            jvm.add("-XX:StartFlightRecording=filename=" + results.resolve(runId + ".jfr") + ",settings=profile");
        }
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans").resolve("influxdb-write.jmx"))
                .resultsRoot(results).runId(runId).dashboard(false).timeout(Duration.ofSeconds(seconds + 180))
                .jvmArgs(jvm)
                .property("influx_host", influx.host()).property("influx_port", Integer.toString(influx.port()))
                .property("rate", Integer.toString(rate)).property("duration", Integer.toString(seconds))
                .property("threads", Integer.toString(threads)).property("in_flight", Integer.toString(inFlight))
                .property("max_connections", Integer.toString(connections))
                .property("server_gauges", "false")
                .property("warmup", Integer.toString(Bench.warmup(0)));
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("influxdb-write.jmx failed: " + outcome.problem());
        }
        LabelStats w = outcome.summary().label("POST /write");
        return new Side("dsload InfluxDB Write " + threads + "x" + inFlight, w.requests(), w.achievedRate(),
                w.successRatio(), w.lateArrivals(), w.latencies().percentile(50), w.latencies().percentile(95),
                w.latencies().percentile(99), w.latencies().max(), w.corrected().percentile(99),
                String.format(Locale.ROOT, "dsload: %d of %d requests timed in microseconds, %d arrivals late by more "
                        + "than 10 ms, %d dropped; results in %s", w.microTimedSamples(), w.requests(),
                        w.lateArrivals(), w.droppedArrivals(), outcome.dir()));
    }

    /**
     * Writes vegeta's targets into {@code dir}: the two bodies in turn as {@code POST /write?db=test}
     * ({@code targets.txt}, with {@code body1.txt} and {@code body2.txt}); returns {@code dir}.
     */
    static Path vegetaTargets(Path dir, EmbeddedInfluxDb influx) throws java.io.IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("body1.txt"), BODY1, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body2.txt"), BODY2, StandardCharsets.UTF_8);
        String url = "http://" + influx.host() + ":" + influx.port() + "/write?db=test";
        Files.writeString(dir.resolve("targets.txt"), "POST " + url + "\n@" + dir.resolve("body1.txt") + "\n\nPOST " + url
                + "\n@" + dir.resolve("body2.txt") + "\n", StandardCharsets.UTF_8);
        return dir;
    }

    private static Side vegeta(EmbeddedInfluxDb influx, String vegeta, int rate, int seconds) throws Exception {
        Path dir = vegetaTargets(Checkout.target().resolve("bench-results").resolve("vegeta-" + rate), influx);
        Path out = dir.resolve("results.bin");
        Bench.command(List.of(vegeta, "attack", "-rate=" + rate, "-duration=" + seconds + "s",
                "-targets=" + dir.resolve("targets.txt"), "-output=" + out), seconds + 120L);
        String json = Bench.command(List.of(vegeta, "report", "-type=json", out.toString()), 120);
        JsonNode r = new ObjectMapper().readTree(json.substring(json.indexOf('{')));
        JsonNode l = r.path("latencies");
        return new Side("vegeta " + rate + "/s", r.path("requests").asLong(), r.path("rate").asDouble(),
                r.path("success").asDouble(), 0, l.path("50th").asLong() / 1000, l.path("95th").asLong() / 1000,
                l.path("99th").asLong() / 1000, l.path("max").asLong() / 1000, -1, "");
    }
}
