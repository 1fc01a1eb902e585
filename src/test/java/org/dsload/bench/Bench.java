package org.dsload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.report.Durations;
import org.dsload.report.ExactHistogram;
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
