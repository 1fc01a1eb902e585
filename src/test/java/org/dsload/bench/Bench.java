package org.dsload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.dsload.report.Durations;
import org.dsload.report.ExactHistogram;

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
