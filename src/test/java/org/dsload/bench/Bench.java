package org.dsload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.inflight.InFlightWindow;
import org.dsload.report.Durations;
import org.dsload.report.ExactHistogram;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.Latencies;
import org.dsload.report.Recordings;

/** What the benchmarks share: one row per measurement, printed as a table. */
final class Bench {
    private Bench() {
    }

    /** One measured configuration: operations per second and the p99 latency in microseconds. */
    record Row(String tool, int threads, long operations, double seconds, long p99Micros) {
        double throughput() {
            return operations / seconds;
        }
    }

    static Row row(String tool, int threads, long operations, double seconds, ExactHistogram micros) {
        return new Row(tool, threads, operations, seconds, micros.percentile(99));
    }

    private static final Pattern LOOP = Pattern.compile("ops=(\\d+) seconds=([\\d.]+) p99us=(\\d+) errors=(\\d+)");

    /**
     * The row of a plain reference loop from its output line
     * {@code ops=<n> seconds=<s> p99us=<µs> errors=<n>}; failed requests in its window are reported.
     */
    static Row plainLoopRow(String tool, int threads, String output) {
        Matcher m = LOOP.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("plain loop failed:\n" + output);
        }
        if (!m.group(4).equals("0")) {
            System.out.println(tool + ": " + m.group(4) + " failed requests in the window");
        }
        return new Row(tool, threads, Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)),
                Long.parseLong(m.group(3)));
    }

    /**
     * A JMeter run's row: the requests of the given labels that started within the measured
     * window (from the first one's start plus the warm-up, for {@code seconds}), each request of
     * a row with requests in flight counted and timed on its own.
     */
    static Row measured(String tool, int threads, Path jtl, Set<String> labels, int warmup, int seconds)
            throws IOException {
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (labels.contains(s.label())) {
                    first = Math.min(first, s.start());
                }
            }
        }
        long from = first + warmup * 1000L;
        long to = from + seconds * 1000L;
        ExactHistogram micros = new ExactHistogram();
        long ops = 0;
        long failed = 0;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                // a request cancelled at the thread's end never completed: it is neither counted nor timed
                if (labels.contains(s.label()) && s.start() >= from && s.start() < to
                        && !s.responseCode().equals(InFlightWindow.CANCELLED)) {
                    ops += s.sampleCount();
                    micros.record(s.elapsedMicros());
                    failed += s.success() ? 0 : s.sampleCount();
                }
            }
        }
        if (failed > 0) {
            System.out.println(tool + ": " + failed + " failed requests in the window");
        }
        return row(tool, threads, ops, seconds, micros);
    }

    /** The median of per-round ratios, with their range: one line for a benchmark run in several rounds. */
    static String medianRatio(String what, List<Double> ratios) {
        List<Double> sorted = ratios.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return String.format(Locale.ROOT, "%s: median %.3fx over %d rounds (from %.3fx to %.3fx)", what, median, n,
                sorted.get(0), sorted.get(n - 1));
    }

    static String table(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "| %-38s | %7s | %12s | %9s |%n", "tool", "threads", "ops/s", "p99"));
        out.append("|----------------------------------------|---------|--------------|-----------|\n");
        for (Row r : rows) {
            out.append(String.format(Locale.ROOT, "| %-38s | %7d | %12.0f | %9s |%n", r.tool(), r.threads(),
                    r.throughput(), r.p99Micros() < 0 ? "n/a" : Durations.format(r.p99Micros() / 1000.0)));
        }
        return out.toString();
    }

    private static final Pattern SUMMARISER = Pattern.compile("summary \\+\\s+(\\d+) in (\\d+):(\\d+):(\\d+)");

    /**
     * A row from the output of a JMeter run without a results file: the samples of the summariser's
     * interval lines ({@code summary +}) that start after the warm-up, over their seconds.
     */
    static Row fromSummariser(String tool, int threads, String output, int warmupSeconds) {
        Matcher m = SUMMARISER.matcher(output);
        long elapsed = 0;
        long ops = 0;
        long measured = 0;
        while (m.find()) {
            long count = Long.parseLong(m.group(1));
            long span = Long.parseLong(m.group(2)) * 3600 + Long.parseLong(m.group(3)) * 60 + Long.parseLong(m.group(4));
            if (elapsed >= warmupSeconds && span > 0) {
                ops += count;
                measured += span;
            }
            elapsed += span;
        }
        if (measured == 0) {
            throw new IllegalStateException("no summariser lines after the warm-up:\n" + output);
        }
        return new Row(tool, threads, ops, measured, -1);
    }

    /**
     * A row from a run in histograms mode: the requests of {@code label}'s intervals (every engine)
     * that started from {@code warmup} seconds after its first interval for {@code seconds}, and
     * their p99 from the merged interval logs.
     */
    static Row fromRecording(String tool, int threads, Path runDir, String label, int warmup, int seconds)
            throws IOException {
        Recordings recordings = Recordings.read(runDir, List.of());
        long[] first = {Long.MAX_VALUE};
        recordings.forEach(i -> {
            if (i.label().equals(label)) {
                first[0] = Math.min(first[0], i.start());
            }
        });
        long from = first[0] + warmup * 1000L;
        long to = from + seconds * 1000L;
        long[] ops = {0};
        Latencies micros = new Latencies();
        recordings.forEach(i -> {
            if (i.label().equals(label) && i.start() >= from && i.start() < to) {
                ops[0] += i.counts().requests();
                micros.add(i.raw());
            }
        });
        return new Row(tool, threads, ops[0], seconds, micros.percentile(99));
    }

    /** JMeter's own launcher jar in the JMeter home the build made, for runs without dsload's runner. */
    static Path jmeterLauncher() throws IOException {
        try (var files = Files.list(org.dsload.targets.Checkout.jmeterHome().resolve("bin"))) {
            return files.filter(p -> p.getFileName().toString().matches("ApacheJMeter-[\\d.]+\\.jar")).findFirst()
                    .orElseThrow(() -> new IOException("no ApacheJMeter-*.jar in the JMeter home's bin folder"));
        }
    }

    /** Runs a command, returns its output; fails if it does not end within the limit. */
    static String command(List<String> command, long limitSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(limitSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " ran past " + limitSeconds + " s");
        }
        return new String(output, StandardCharsets.UTF_8);
    }

    static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies {@code -Dbench.props="name=value ..."} (how Maven passes a benchmark's own settings) as
     * system properties {@code bench.<name>}.
     */
    /**
     * Pins every thread of process {@code pid} to the CPUs {@code cpus} (taskset's list, "0" or "1,2");
     * processes it starts afterwards inherit them. For benchmarks that keep the generator and the server
     * off each other's core, so that a run's figures do not hang on where the scheduler put them.
     */
    static void pin(long pid, String cpus) throws IOException, InterruptedException {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)).redirectErrorStream(true)
                .start();
        String out = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (taskset.waitFor() != 0) {
            throw new IOException("taskset -a -p -c " + cpus + " " + pid + " failed: " + out.trim());
        }
    }

    static void applyProps() {
        for (String pair : System.getProperty("bench.props", "").trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                System.setProperty("bench." + pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
    }

    /** The thread counts of -Dbench.threads, or the benchmark's own when it is not given. */
    static List<Integer> threads(String defaults) {
        String given = System.getProperty("bench.threads", "");
        return ints(given.isBlank() ? defaults : given);
    }

    /** The warm-up seconds of -Dbench.warmup, or the benchmark's own when it is not given. */
    static int warmup(int defaultSeconds) {
        String given = System.getProperty("bench.warmup", "");
        return given.isBlank() ? defaultSeconds : Integer.parseInt(given.trim());
    }

    static List<Integer> ints(String csv) {
        List<Integer> values = new ArrayList<>();
        for (String v : csv.split(",")) {
            values.add(Integer.parseInt(v.trim()));
        }
        return values;
    }
}
