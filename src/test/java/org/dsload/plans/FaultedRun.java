package org.dsload.plans;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Deadline;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.testing.DsloadProcess;

/**
 * A shipped plan run as a user runs it ({@code bin/dsload run}), whose store a test fails while it
 * runs: it tells when the plan's load has reached the store, and afterwards how many requests
 * failed from the fault on and what the run said and left.
 */
final class FaultedRun implements AutoCloseable {
    private static final Pattern RUNNING = Pattern.compile("^dsload: running \\S+ -> (\\S+) \\(JMeter pid \\d+\\)$");
    static final Duration LIMIT = Duration.ofMinutes(3);

    private final DsloadProcess process;
    private final String label;
    /** Requests each thread keeps outstanding at most: threads times places bound the failures. */
    private final int places;
    private Integer exit;
    /** What a results row counts of one request (a KairosDB batch counts its points). */
    private int countPerRequest = 1;
    /** Response codes of a store that answered: the consequences of a fault, not requests failing on it. */
    private java.util.Set<String> answered = java.util.Set.of();

    private FaultedRun(DsloadProcess process, String label, int places) {
        this.process = process;
        this.label = label;
        this.places = places;
    }

    /**
     * @param label  a label of the load the fault must hit (not a set-up's)
     * @param places threads times requests in flight of that load
     */
    static FaultedRun start(Path results, String plan, String label, int places, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", PlanRuns.plan(plan).toString(), "--results",
                results.toString(), "--no-dashboard"));
        args.addAll(List.of(options));
        return new FaultedRun(DsloadProcess.start(args.toArray(String[]::new)), label, places);
    }

    /** A request counts this many in a results row (the points of a KairosDB batch). */
    FaultedRun countPerRequest(int count) {
        countPerRequest = count;
        return this;
    }

    /**
     * Failures with these response codes are left out of {@link #failuresSince}: the store answered
     * them, once it was back (a ZooKeeper session that expired during a freeze took its ephemeral
     * znodes along, and their deletes are answered {@code NONODE}).
     */
    FaultedRun answeredWith(String... codes) {
        answered = java.util.Set.of(codes);
        return this;
    }

    /** The run's folder, once JMeter started. */
    Path dir() {
        for (String line : process.output().lines().toList()) {
            Matcher m = RUNNING.matcher(line);
            if (m.matches()) {
                return Path.of(m.group(1));
            }
        }
        throw new IllegalStateException("JMeter did not start:\n" + process.output());
    }

    private Path jtl() throws IOException {
        try (var files = Files.list(dir())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jtl")).findFirst()
                    .orElse(dir().resolve("none.jtl"));
        }
    }

    /** Waits until the results file holds {@code count} successful rows of the load's label. */
    void awaitLoad(int count) throws InterruptedException {
        if (!process.awaitLine("dsload: running ", LIMIT)) {
            throw new IllegalStateException("JMeter did not start:\n" + process.output());
        }
        // a run that ended (its load failed, say) never gets there: no need to wait out the limit
        Deadline.await(() -> loaded(count) || !process.isAlive(), LIMIT, Duration.ofMillis(100));
        if (!loaded(count)) {
            throw new IllegalStateException("the load never reached " + count + " successful '" + label + "' rows"
                    + (process.isAlive() ? " within " + LIMIT.toSeconds() + " s" : " before the run ended") + ":\n"
                    + process.output());
        }
    }

    /** Whether the results file holds {@code count} successful rows of the load's label. */
    private boolean loaded(int count) {
        String ok = "," + label + ",";
        try {
            Path jtl = jtl();
            return Files.exists(jtl) && Files.readAllLines(jtl, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains(ok) && l.contains(",true,")).count() >= count;
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    int exitCode() throws InterruptedException {
        if (exit == null) {
            exit = process.exitCode(LIMIT);
        }
        return exit;
    }

    String output() {
        return process.output();
    }

    String summary() throws IOException {
        return Files.readString(dir().resolve("summary.txt"), StandardCharsets.UTF_8);
    }

    long resultsBytes() throws IOException {
        return Files.size(jtl());
    }

    /** Requests that failed after {@code sinceMillis}, and for how long after it requests ended. */
    record Failures(long failed, long millis, int places) {
        /** Failed requests per place (a thread, or one of its requests in flight) and second. */
        double perPlaceSecond() {
            return failed / (double) places / Math.max(1, millis / 1000.0);
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d failed requests in %.1f s over %d places: %.2f per place and "
                    + "second", failed, millis / 1000.0, places, perPlaceSecond());
        }
    }

    Failures failuresSince(long sinceMillis) throws IOException {
        long failed = 0;
        long last = sinceMillis;
        try (JtlReader reader = new JtlReader(jtl())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (s.end() >= sinceMillis) {
                    last = Math.max(last, s.end());
                    if (!s.success() && !answered.contains(s.responseCode())) {
                        failed += s.sampleCount();
                    }
                }
            }
        }
        return new Failures(failed / countPerRequest, last - sinceMillis, places);
    }

    @Override
    public void close() {
        process.close();
    }
}
