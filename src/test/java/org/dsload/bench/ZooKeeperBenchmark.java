package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.JMeterJvm;
import org.dsload.report.LabelStats;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedZooKeeper;

/**
 * S4's benchmark asked of the tool itself: does test-plans/zk-latencies.jmx in JMeter with the
 * dsload sampler get the same operations per second out of ZooKeeper as a plain Curator loop
 * doing the same phases? Same embedded ensemble, same znodes and sizes, one after the other,
 * each in a JVM of its own:
 * <ul>
 * <li>(a) the plan in JMeter, results file written, as every real run does;</li>
 * <li>(b) {@link PlainCuratorLoop}: one Curator client with the plan's settings in a loop;</li>
 * <li>(c) zk-smoketest's zk-latencies.py --synchronous, when {@code bench.zk_smoketest} names
 * a folder holding it and {@code bench.python} a Python that imports its zkpython binding.</li>
 * </ul>
 * Settings, as system properties or as {@code -Dbench.props="znodes=10000 rounds=2 ..."} through Maven:
 * {@code bench.znodes} (default 10000), {@code bench.size} (100),
 * {@code bench.watches} (1000), {@code bench.zk_nodes} (1; 3 or 5 for an ensemble),
 * {@code bench.rounds} (1: each tool runs this many times, alternating, and its best round counts).
 *
 * <p>With {@code inflight=2x32} it measures requests in flight instead ({@link ZooKeeperInFlightComparison}):
 * gets with 2 threads of 32 in flight against a plain Curator loop with 64 background gets outstanding.
 */
public final class ZooKeeperBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final List<String> PHASES = List.of("Create", "Set", "Get", "Delete", "Create Ephemeral", "Watch",
            "Delete Ephemeral", "Watch notification");
    private static final Pattern LOOP_LINE = Pattern.compile("phase=(.+) ops=(\\d+) millis=([\\d.]+) p99us=(\\d+)");
    private static final Pattern PY_LINE = Pattern.compile(
            "^(created|set|get|deleted|watched)\\s+(\\d+)\\s+(permanent|ephemeral)?\\s*znodes\\s+in\\s+(\\d+) ms "
                    + "\\(([\\d.]+) ms/op ([\\d.]+)/sec\\)", Pattern.MULTILINE);

    private ZooKeeperBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        if (System.getProperty("bench.inflight") != null) {
            ZooKeeperInFlightComparison.run();
            return;
        }
        int znodes = Integer.getInteger("bench.znodes", 10_000);
        int size = Integer.getInteger("bench.size", 100);
        int watches = Integer.getInteger("bench.watches", 1000);
        int nodes = Integer.getInteger("bench.zk_nodes", 1);
        int rounds = Integer.getInteger("bench.rounds", 1);
        Map<String, Double> jmeter = new LinkedHashMap<>();
        Map<String, Double> loop = new LinkedHashMap<>();
        Map<String, Double> python = new LinkedHashMap<>();
        String pythonNote;
        try (EmbeddedZooKeeper zk = nodes > 1 ? EmbeddedZooKeeper.ensemble(nodes) : EmbeddedZooKeeper.single()) {
            pythonNote = pythonUnavailable();
            for (int round = 1; round <= rounds; round++) {
                best(jmeter, jmeter(zk, znodes, size, watches, round));
                best(loop, plainLoop(zk, znodes, size, watches, round));
                if (pythonNote == null) {
                    best(python, zkLatenciesPy(zk, znodes, size, round));
                }
            }
        }
        System.out.println();
        System.out.println("zk-latencies phases, " + znodes + " znodes of " + size + " bytes, one client, synchronous; "
                + (nodes > 1 ? nodes + "-node ensemble" : "one server") + "; " + watches + " watch notifications each for "
                + "creates and deletes; best of " + rounds + " round(s); " + Runtime.getRuntime().availableProcessors()
                + " cores shared by ZooKeeper and the load generator");
        System.out.println("| operation          | (a) JMeter + dsload, ops/s | (b) plain Curator loop, ops/s | a/b   |"
                + " (c) zk-latencies.py, ops/s |");
        System.out.println("|--------------------|----------------------------|-------------------------------|-------|"
                + "----------------------------|");
        for (String phase : PHASES) {
            Double a = jmeter.get(phase);
            Double b = loop.get(phase);
            Double c = python.get(phase);
            System.out.printf(Locale.ROOT, "| %-18s | %26s | %29s | %5s | %26s |%n", phase, fixed(a), fixed(b),
                    a == null || b == null ? "n/a" : String.format(Locale.ROOT, "%.3f", a / b), fixed(c));
        }
        if (pythonNote != null) {
            System.out.println("(c) skipped: " + pythonNote);
        }
    }

    private static void best(Map<String, Double> into, Map<String, Double> round) {
        round.forEach((k, v) -> into.merge(k, v, Math::max));
    }

    private static String fixed(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** (a): each phase's requests over its span, from the run's summary. */
    private static Map<String, Double> jmeter(EmbeddedZooKeeper zk, int znodes, int size, int watches, int round)
            throws Exception {
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/zk-latencies.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("zk-jmeter-" + round + "-" + System.nanoTime())
                .dashboard(false).timeout(Duration.ofMinutes(30)).jvmArgs(JMeterJvm.heap("1g"))
                .property("hosts", zk.connectString()).property("znodes", Integer.toString(znodes))
                .property("size", Integer.toString(size)).property("watches", Integer.toString(watches))
                .property("clients", "1").property("zk_root", "/bench-jmeter-" + round);
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        for (String phase : PHASES) {
            LabelStats s = outcome.summary().label(phase);
            if (s != null) {
                rates.put(phase, s.requests() * 1000.0 / Math.max(1, s.totalMillis()));
            }
        }
        return rates;
    }

    private static Map<String, Double> plainLoop(EmbeddedZooKeeper zk, int znodes, int size, int watches, int round)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PlainCuratorLoop.class.getName(),
                zk.connectString(), Integer.toString(znodes), Integer.toString(size), Integer.toString(watches),
                "/bench-loop-" + round));
        String output = Bench.command(command, 1800);
        Map<String, Double> rates = new LinkedHashMap<>();
        Matcher m = LOOP_LINE.matcher(output);
        while (m.find()) {
            rates.put(m.group(1), Long.parseLong(m.group(2)) * 1000.0 / Double.parseDouble(m.group(3)));
        }
        if (rates.size() != PHASES.size()) {
            throw new IllegalStateException("plain loop failed:\n" + output);
        }
        return rates;
    }

    /** @return why zk-latencies.py cannot run, or null when it can */
    private static String pythonUnavailable() throws Exception {
        String dir = System.getProperty("bench.zk_smoketest", "");
        if (dir.isBlank() || !Files.isRegularFile(Path.of(dir, "zk-latencies.py"))) {
            return "set -Dbench.zk_smoketest=<folder with zk-smoketest's zk-latencies.py> and -Dbench.python=<a Python 2.7 "
                    + "that imports zkpython's zookeeper module> (docs/benchmarks.md says how to build it)";
        }
        String out = Bench.command(List.of(System.getProperty("bench.python", "python2"), "-c",
                "import sys; sys.path.insert(0, '" + dir + "'); import zookeeper; print('zkpython ok')"), 60);
        return out.contains("zkpython ok") ? null : "the Python given cannot import zookeeper (zkpython): " + out.strip();
    }

    private static Map<String, Double> zkLatenciesPy(EmbeddedZooKeeper zk, int znodes, int size, int round)
            throws Exception {
        Path script = Path.of(System.getProperty("bench.zk_smoketest"), "zk-latencies.py").toAbsolutePath();
        // zkclient.py writes the C client's log (cli_log_<pid>.txt) into the working directory.
        Path work = Files.createDirectories(Checkout.target().resolve("bench-results"));
        Process p = new ProcessBuilder(System.getProperty("bench.python", "python2"), script.toString(),
                "--servers=" + zk.connectString().split(",")[0], "--znode_count=" + znodes, "--znode_size=" + size,
                "--synchronous", "--timeout=30000", "--root_znode=/bench-py-" + round)
                .directory(work.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(1800, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("zk-latencies.py ran past 1800 s");
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        Matcher m = PY_LINE.matcher(output);
        while (m.find()) {
            String label = switch (m.group(1)) {
                case "created" -> "ephemeral".equals(m.group(3)) ? "Create Ephemeral" : "Create";
                case "deleted" -> "ephemeral".equals(m.group(3)) ? "Delete Ephemeral" : "Delete";
                case "set" -> "Set";
                case "get" -> "Get";
                default -> "Watch";
            };
            rates.put(label, Double.parseDouble(m.group(6)));
        }
        if (rates.isEmpty()) {
            throw new IllegalStateException("cannot read zk-latencies.py's output:\n" + output);
        }
        return rates;
    }
}
