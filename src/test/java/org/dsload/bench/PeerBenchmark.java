package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.cli.ExitCodes;
import org.dsload.process.Folders;
import org.dsload.process.JMeterJvm;
import org.dsload.report.LabelStats;
import org.dsload.report.Summary;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.targets.EmbeddedRedis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The shipped plans as a user runs them, against the peer tool on the same server, side by side in
 * one run: {@code bin/dsload run <plan>} with the plan's own defaults and nothing given but the
 * server's address, the rate and the duration; every round runs each side once, the next round in
 * the opposite order.
 * <ul>
 * <li>{@code influx}: test-plans/influxdb-write.jmx {@code -Jrate=5000 -Jduration=30} against
 * {@code vegeta attack} at the same rate and duration with the same two bodies, on one influxd.
 * Goals: late arrivals at most 0.1 %, raw p99 at most 1.5 x vegeta's, corrected p99 at most 2 x
 * vegeta's p99.</li>
 * <li>{@code redis}: {@code redis-benchmark -t get -c 50 -P 1} at full speed; test-plans/redis-get-rate.jmx
 * at 0.8 x the first round's redis-benchmark throughput (goals: late at most 0.1 %, raw p99 at most
 * 2 x redis-benchmark's p99); test-plans/ekv-profile-get.jmx with 50 requests in flight at full
 * speed ({@code full=TxN}, 1x50 by default; goals: throughput at least redis-benchmark's, p99 at
 * most 2 x), over 100-byte values of 10,000 keys of each key format.</li>
 * </ul>
 * Beside each side: the CPU one request cost the load generator, utime + stime of the JMeter process
 * over the measured window (the first to the last request of the measured label) divided by the
 * requests in it; of vegeta and redis-benchmark over their whole run. Goal: dsload at most 1.5 x the
 * peer's.
 *
 * <p>{@code -Dbench.props="part=influx,redis rounds=2 full=1x50 duration=30 jfr=true jvm=-XX:+UseSerialGC,...
 * extra=threads=1,... peers=false"}: {@code extra} adds -J properties to every dsload run, {@code peers=false}
 * runs the dsload side alone (redis-benchmark once, for the rate);
 * {@code jfr} and {@code jvm} run the plans through the runner inside this JVM (the same JMeter
 * command line as {@code bin/dsload run}, with these options added to the JMeter JVM: a Java Flight
 * Recording per run beside its folder, or options to try) instead of through {@code bin/dsload}.
 */
public final class PeerBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final int KEYS = InFlightComparison.KEYS;
    private static final Path RESULTS = Checkout.target().resolve("bench-results").resolve("peers");
    /** false: the dsload side alone (redis-benchmark once, for the rate), to try options; no ratios. */
    private static boolean peers() {
        return !"false".equals(System.getProperty("bench.peers"));
    }

    private PeerBenchmark() {
    }

    /** One side's figures: latencies in µs (-1: not measured), CPU of the generator's process in seconds. */
    record Side(String tool, long requests, double seconds, long late, long p50, long p99, long correctedP99,
            double cpuSeconds, String threads) {
        double rate() {
            return requests / seconds;
        }

        double cpuMicrosPerRequest() {
            return cpuSeconds * 1e6 / Math.max(1, requests);
        }

        String line() {
            return String.format(Locale.ROOT, "| %-44s | %9d | %9.0f | %7s | %7d | %8d | %9s | %8.1f | %5.2f |", tool,
                    requests, rate(), late < 0 ? "-" : String.format(Locale.ROOT, "%.3f%%", 100.0 * late / requests),
                    p50, p99, correctedP99 < 0 ? "-" : Long.toString(correctedP99), cpuMicrosPerRequest(),
                    cpuSeconds / seconds) + (threads.isEmpty() ? "" : "\n    (CPU of " + tool + " by thread: " + threads + ")");
        }
    }

    static final String HEADER = "| tool                                         |  requests |    rate/s |    late |  p50 µs |   p99 µs | corr. p99 | CPU µs/req | cores |\n"
            + "|----------------------------------------------|-----------|-----------|---------|---------|----------|-----------|----------|-------|";

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        List<String> parts = List.of(System.getProperty("bench.part", "influx,redis").split(","));
        int rounds = Integer.getInteger("bench.rounds", 2);
        List<String> report = new ArrayList<>();
        Files.createDirectories(RESULTS);
        if (parts.contains("influx")) {
            report.addAll(influx(rounds));
        }
        if (parts.contains("redis")) {
            report.addAll(redis(rounds));
        }
        System.out.println();
        System.out.println("Shipped plans through bin/dsload run against the peers, " + rounds + " rounds, "
                + Runtime.getRuntime().availableProcessors() + " cores shared by the server and the load generator"
                + (inProcess() ? " (runs in this JVM, JMeter JVM options added: " + System.getProperty("bench.jvm", "")
                + (Boolean.getBoolean("bench.jfr") ? " and JFR" : "") + ")" : ""));
        report.forEach(System.out::println);
    }

    private static List<String> influx(int rounds) throws Exception {
        int rate = 5000;
        int seconds = Integer.getInteger("bench.duration", 30);
        String vegeta = System.getProperty("bench.vegeta", System.getProperty("user.home") + "/go/bin/vegeta");
        if (EmbeddedInfluxDb.binary().isEmpty() || !Files.isExecutable(Path.of(vegeta))) {
            throw new IllegalStateException("needs influxd (" + EmbeddedInfluxDb.missingMessage() + ") and vegeta at " + vegeta);
        }
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("(a) InfluxDB writes at " + rate + "/s for " + seconds + " s: influxdb-write.jmx with its defaults against vegeta");
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            influx.query(null, "CREATE DATABASE test");
            for (int round = 1; round <= rounds; round++) {
                Side d = null;
                Side v = null;
                String load = InFlightComparison.loadAverage();
                for (int turn = 0; turn < 2; turn++) {
                    if ((turn == 0) == (round % 2 == 1)) {
                        d = dsload("dsload influxdb-write.jmx", "influxdb-write.jmx", "POST /write", "influx-" + round,
                                List.of("influx_host=" + influx.host(), "influx_port=" + influx.port(), "rate=" + rate,
                                        "duration=" + seconds), -1, 0);
                    } else if (peers()) {
                        v = vegeta(influx, vegeta, rate, seconds, round);
                    }
                }
                if (v == null) {
                    out.add(d.line());
                    continue;
                }
                out.add("round " + round + " (" + (round % 2 == 1 ? "dsload first" : "vegeta first") + ", load average "
                        + load + " before):");
                out.add(HEADER);
                out.add(d.line());
                out.add(v.line());
                double late = 100.0 * d.late() / d.requests();
                double raw = (double) d.p99() / v.p99();
                double corrected = (double) d.correctedP99() / v.p99();
                double cpu = d.cpuMicrosPerRequest() / v.cpuMicrosPerRequest();
                out.add(String.format(Locale.ROOT, "round %d: late %.3f%% (goal <= 0.1%%: %s), raw p99 %.2f x vegeta's "
                        + "(goal <= 1.5: %s), corrected p99 %.2f x (goal <= 2: %s), CPU per request %.2f x (goal <= 1.5: %s)",
                        round, late, verdict(late <= 0.1), raw, verdict(raw <= 1.5), corrected, verdict(corrected <= 2),
                        cpu, verdict(cpu <= 1.5)));
            }
        }
        return out;
    }

    private static List<String> redis(int rounds) throws Exception {
        if (!Bench.onPath("redis-benchmark")) {
            throw new IllegalStateException("redis-benchmark is not installed (Debian: apt-get install redis-tools)");
        }
        int seconds = Integer.getInteger("bench.duration", 30);
        int warmup = 10;
        String[] full = System.getProperty("bench.full", "1x50").split("x");
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("(b) Redis GET of 10,000 keys of 100 B: redis-benchmark -t get -c 50 -P 1 at full speed; redis-get-rate.jmx"
                + " with its defaults at 0.8 x its throughput; ekv-profile-get.jmx with " + full[0] + " x " + full[1]
                + " in flight at full speed (" + warmup + " s of its " + seconds + " s left out)");
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            InFlightComparison.load(redis);
            long fixedRate = 0;
            long requests = 1_500_000;
            for (int round = 1; round <= rounds; round++) {
                String load = InFlightComparison.loadAverage();
                List<String> order = new ArrayList<>(List.of("rb", "rate", "full"));
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order);
                }
                Side rb = null;
                Side rate = null;
                Side fast = null;
                for (String which : order) {
                    switch (which) {
                        case "rb" -> {
                            if (!peers() && rb != null) {
                                continue;
                            }
                            rb = redisBenchmark(redis, requests);
                            requests = Math.round(rb.rate() * 15);
                        }
                        case "rate" -> {
                            if (fixedRate == 0) { // round 2 runs it before its own redis-benchmark: round 1's rate
                                fixedRate = Math.round(0.8 * rb.rate());
                            }
                            rate = dsload("dsload redis-get-rate.jmx at " + fixedRate + "/s", "redis-get-rate.jmx", "GET",
                                    "redis-rate-" + round, List.of("hosts=" + redis.address(), "rate=" + fixedRate,
                                            "duration=" + seconds), -1, 0);
                        }
                        default -> fast = dsload("dsload ekv-profile-get.jmx " + full[0] + " x " + full[1] + " in flight",
                                "ekv-profile-get.jmx", "GET profile", "redis-full-" + round,
                                List.of("hosts=" + redis.address(), "threads=" + full[0], "in_flight=" + full[1],
                                        "duration=" + seconds, "profiles=" + KEYS, "load_threads=0", "rampup=0"),
                                warmup, seconds - warmup);
                    }
                }
                if (!peers()) {
                    out.add(rate.line() + "\n" + fast.line());
                    continue;
                }
                out.add("round " + round + " (" + String.join(", ", order) + "; load average " + load + " before):");
                out.add(HEADER);
                out.add(rb.line());
                out.add(rate.line());
                out.add(fast.line());
                double late = 100.0 * rate.late() / rate.requests();
                double rateP99 = (double) rate.p99() / rb.p99();
                double throughput = fast.rate() / rb.rate();
                double fullP99 = (double) fast.p99() / rb.p99();
                double cpuRate = rate.cpuMicrosPerRequest() / rb.cpuMicrosPerRequest();
                double cpuFull = fast.cpuMicrosPerRequest() / rb.cpuMicrosPerRequest();
                out.add(String.format(Locale.ROOT, "round %d: at 0.8 x: late %.3f%% (goal <= 0.1%%: %s), raw p99 %.2f x "
                        + "redis-benchmark's (goal <= 2: %s); full speed: throughput %.3f x (goal >= 1: %s), p99 %.2f x "
                        + "(goal <= 2: %s); CPU per request %.2f x at 0.8 x, %.2f x at full speed (goal <= 1.5: %s)",
                        round, late, verdict(late <= 0.1), rateP99, verdict(rateP99 <= 2), throughput,
                        verdict(throughput >= 1), fullP99, verdict(fullP99 <= 2), cpuRate, cpuFull, verdict(cpuFull <= 1.5)));
            }
        }
        return out;
    }

    private static String verdict(boolean met) {
        return met ? "met" : "MISSED";
    }

    /** Runs JMeter through bin/dsload as a user does, or, with JMeter JVM options to try, through the runner here. */
    private static boolean inProcess() {
        return !System.getProperty("bench.jvm", "").isBlank() || Boolean.getBoolean("bench.jfr");
    }

    /**
     * A shipped plan run with the given -J properties; figures of {@code label} from the results file,
     * over all of its requests ({@code skip} < 0) or over {@code seconds} from {@code skip} seconds
     * after its first request; the JMeter process's CPU over the same window.
     */
    private static Side dsload(String tool, String plan, String label, String id, List<String> planProperties, int skip,
            int seconds) throws Exception {
        List<String> properties = new ArrayList<>(planProperties);
        for (String extra : System.getProperty("bench.extra", "").split(",")) {
            if (!extra.isBlank()) {
                properties.add(extra.trim()); // properties to try: not the plan's defaults any more
            }
        }
        Path dir = RESULTS.resolve(id);
        Folders.deleteTree(dir); // a folder of an earlier run would make the runner pick another name
        try (CpuTrace jmeter = CpuTrace.of(dir.resolve("jmeter.log").toString())) {
            Path planFile = Checkout.basedir().resolve("test-plans").resolve(plan);
            if (inProcess()) {
                List<String> jvm = new ArrayList<>(JMeterJvm.heap("1g"));
                for (String option : System.getProperty("bench.jvm", "").split(",")) {
                    if (!option.isBlank()) {
                        jvm.add(option.trim());
                    }
                }
                if (Boolean.getBoolean("bench.jfr")) {
                    jvm.add("-XX:StartFlightRecording=settings=profile,filename=" + RESULTS.resolve(id + ".jfr"));
                }
                PlanRun run = new PlanRun(Checkout.jmeterHome(), planFile).resultsRoot(RESULTS).runId(id)
                        .timeout(Duration.ofMinutes(10)).jvmArgs(jvm);
                properties.forEach(p -> run.property(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1)));
                PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
                if (!outcome.ok()) {
                    throw new IllegalStateException(plan + " failed: " + outcome.problem());
                }
            } else {
                List<String> command = new ArrayList<>(List.of(Checkout.basedir().resolve("bin/dsload").toString(), "run",
                        planFile.toString()));
                properties.forEach(p -> command.add("-J" + p));
                command.addAll(List.of("--results", RESULTS.toString(), "--run-id", id));
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(RESULTS.resolve(id + ".out").toFile()).start();
                if (!p.waitFor(10, TimeUnit.MINUTES)) {
                    p.destroy();
                    throw new IllegalStateException(String.join(" ", command) + " ran past 10 minutes");
                }
                if (p.exitValue() == ExitCodes.LOAD_INCOMPLETE) {
                    // the load was not the plan's (arrivals unsent): its results stand, and are told with the verdict
                    String verdict = Files.readString(RESULTS.resolve(id + ".out")).lines()
                            .filter(l -> l.contains("did not run as planned") || l.contains("went unsent"))
                            .reduce((a, b) -> a + " " + b.trim()).orElse("exit 6");
                    System.out.println("  " + tool + ": " + verdict + " (its figures follow)");
                } else if (p.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", command) + " exited with " + p.exitValue()
                            + "; see " + RESULTS.resolve(id + ".out"));
                }
            }
            Path jtl = dir.resolve(plan.replace(".jmx", ".jtl"));
            LabelStats all = Summary.of(jtl).label(label);
            if (skip < 0) {
                double cpu = jmeter.cpuSeconds(all.firstStart(), all.lastEnd());
                return new Side(tool, all.requests(), (all.lastEnd() - all.firstStart()) / 1000.0, all.lateArrivals(),
                        all.latencies().percentile(50), all.latencies().percentile(99), all.corrected().percentile(99), cpu,
                        jmeter.topThreads(all.firstStart(), all.lastEnd(), 6));
            }
            Bench.Row row = Bench.measured(tool, 0, jtl, java.util.Set.of(label), skip, seconds);
            long from = all.firstStart() + skip * 1000L;
            double cpu = jmeter.cpuSeconds(from, from + seconds * 1000L);
            return new Side(tool, row.operations(), seconds, -1, -1, row.p99Micros(), -1, cpu,
                    jmeter.topThreads(from, from + seconds * 1000L, 6));
        }
    }

    private static Side vegeta(EmbeddedInfluxDb influx, String vegeta, int rate, int seconds, int round) throws Exception {
        Path dir = InfluxDbBenchmark.vegetaTargets(RESULTS.resolve("vegeta-" + round), influx);
        Path results = dir.resolve("results.bin");
        double[] cpu;
        try (CpuTrace trace = CpuTrace.of(results.toString())) {
            Bench.command(List.of(vegeta, "attack", "-rate=" + rate, "-duration=" + seconds + "s",
                    "-targets=" + dir.resolve("targets.txt"), "-output=" + results), seconds + 120L);
            cpu = trace.wholeLife();
        }
        String json = Bench.command(List.of(vegeta, "report", "-type=json", results.toString()), 120);
        JsonNode r = new ObjectMapper().readTree(json.substring(json.indexOf('{')));
        JsonNode l = r.path("latencies");
        long requests = r.path("requests").asLong();
        return new Side("vegeta attack -rate=" + rate, requests, requests / r.path("rate").asDouble(), -1,
                l.path("50th").asLong() / 1000, l.path("99th").asLong() / 1000, -1, cpu[0], "");
    }

    /** redis-benchmark -t get at full speed with 50 connections; its CPU over its whole run. */
    private static Side redisBenchmark(EmbeddedRedis redis, long requests) throws Exception {
        String output;
        double[] cpu;
        try (CpuTrace trace = CpuTrace.of("redis-benchmark")) {
            output = Bench.command(List.of("redis-benchmark", "-h", redis.host(), "-p", Integer.toString(redis.port()),
                    "-c", "50", "-n", Long.toString(requests), "-t", "get", "-r", Integer.toString(KEYS), "-d", "100",
                    "-P", "1", "--csv"), 600);
            cpu = trace.wholeLife();
        }
        // "GET","<rps>","<avg>","<min>","<p50>","<p95>","<p99>","<max>"
        Matcher m = Pattern.compile("\"GET\",\"([\\d.]+)\",\"[\\d.]+\",\"[\\d.]+\",\"([\\d.]+)\",\"[\\d.]+\",\"([\\d.]+)\"")
                .matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("cannot read redis-benchmark output:\n" + output);
        }
        double rps = Double.parseDouble(m.group(1));
        return new Side("redis-benchmark -t get -c 50 -P 1", requests, requests / rps, -1,
                Math.round(Double.parseDouble(m.group(2)) * 1000), Math.round(Double.parseDouble(m.group(3)) * 1000), -1,
                cpu[0], "");
    }
}
