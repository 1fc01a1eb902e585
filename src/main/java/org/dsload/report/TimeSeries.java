package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeMap;

/** A run second by second (by sample start): requests, failures and latency percentiles, raw and corrected. */
public final class TimeSeries {
    /** One second of the run. */
    static final class Second {
        long requests;
        long failures;
        final CoarseHistogram raw = new CoarseHistogram();
        final CoarseHistogram corrected = new CoarseHistogram();
    }

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private double targetRate;

    public static TimeSeries of(Path jtl) throws IOException {
        TimeSeries series = new TimeSeries();
        LabelStats all = new LabelStats("all");
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                series.add(s);
                all.add(s);
            }
        }
        series.targetRate = all.targetRate();
        return series;
    }

    void add(JtlSample s) {
        Second second = seconds.computeIfAbsent(Math.floorDiv(s.start(), 1000), k -> new Second());
        second.requests += s.sampleCount();
        if (!s.success()) {
            second.failures += s.sampleCount();
        }
        second.raw.record(s.elapsedMicros());
        if (s.scheduled()) {
            second.corrected.record(s.correctedMicros());
        }
    }

    boolean isEmpty() {
        return seconds.isEmpty();
    }

    long firstSecond() {
        return seconds.firstKey();
    }

    TreeMap<Long, Second> seconds() {
        return seconds;
    }

    /** The arrival schedule's rate, 0 without one. */
    double targetRate() {
        return targetRate;
    }

    boolean scheduled() {
        return seconds.values().stream().anyMatch(s -> s.corrected.count() > 0);
    }
}
