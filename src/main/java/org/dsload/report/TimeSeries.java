package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

/** A run second by second (by sample start): requests, failures and latency percentiles, raw and corrected. */
public final class TimeSeries {
    /** One second of the run. */
    static final class Second {
        long requests;
        long failures;
        final Histogram raw = HdrLatency.histogram();
        final Histogram corrected = HdrLatency.histogram();
    }

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private double targetRate;
    private final List<JtlSample> faultMarkers = new ArrayList<>();

    public static TimeSeries of(Path jtl) throws IOException {
        TimeSeries series = new TimeSeries();
        LabelStats all = new LabelStats("all");
        try (JtlReader reader = new JtlReader(jtl).faultMarkers(true)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (JtlReader.isFaultMarker(s.label())) {
                    series.faultMarkers.add(s);
                    continue;
                }
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
        second.raw.recordValue(Math.max(0, s.elapsedMicros()));
        if (s.scheduled()) {
            second.corrected.recordValue(Math.max(0, s.correctedMicros()));
        }
    }

    /** The fault samples, kept apart from the requests. */
    List<JtlSample> faultMarkers() {
        return faultMarkers;
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
        return seconds.values().stream().anyMatch(s -> s.corrected.getTotalCount() > 0);
    }
}
