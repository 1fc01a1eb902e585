package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.dsload.core.inflight.InFlightWindow;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRunner;

/**
 * What a run with requests in flight wrote for one label: its rows in the results file, the
 * requests they stand for (each read back as a sample of its own), and how those ended.
 */
record InFlightCounts(long rows, long requests, long ok, long cancelled) {

    static InFlightCounts of(PlanRunner.Outcome outcome, String label) throws IOException {
        List<String> lines = Files.readAllLines(outcome.jtl(), StandardCharsets.UTF_8);
        int column = List.of(lines.get(0).split(",")).indexOf("label");
        long rows = lines.stream().skip(1).filter(l -> l.split(",", column + 2)[column].equals(label)).count();
        List<JtlSample> samples = PlanRuns.samples(outcome.jtl()).stream().filter(s -> s.label().equals(label)).toList();
        long requests = samples.stream().mapToLong(JtlSample::sampleCount).sum();
        long ok = samples.stream().filter(JtlSample::success).mapToLong(JtlSample::sampleCount).sum();
        long cancelled = samples.stream().filter(s -> s.responseCode().equals(InFlightWindow.CANCELLED))
                .mapToLong(JtlSample::sampleCount).sum();
        return new InFlightCounts(rows, requests, ok, cancelled);
    }

    /** The counts of two labels together (a warm-up's and the measured one's). */
    InFlightCounts plus(InFlightCounts other) {
        return new InFlightCounts(rows + other.rows, requests + other.requests, ok + other.ok, cancelled + other.cancelled);
    }

    /**
     * Every request the results file reports ended as answered or as cancelled when its thread
     * ended; the server ran every answered one, and may have run the cancelled ones too.
     */
    void assertServerCounted(long served) {
        assertTrue(ok + cancelled == requests, "requests end answered or cancelled: " + this);
        assertTrue(served >= ok && served <= ok + cancelled,
                "the server ran " + served + " commands, the results file has " + this);
    }
}
