package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.HdrHistogram.IntCountsHistogram;

/**
 * A run second by second: requests, failures and latency percentiles, raw and corrected; rows by
 * their start, histograms mode's intervals by the second they start in. A chart needs no more than
 * 2 significant digits per second (1 %), which keeps a long run's seconds small.
 */
public final class TimeSeries {
    static final int CHART_DIGITS = 2;

    /** One second of the run. */
    static final class Second {
        long requests;
        long failures;
        final IntCountsHistogram raw = new IntCountsHistogram(CHART_DIGITS);
        final IntCountsHistogram corrected = new IntCountsHistogram(CHART_DIGITS);
    }

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private double targetRate;
    private boolean histograms;
    private final List<JtlSample> faultMarkers = new ArrayList<>();

    public static TimeSeries of(Path jtl, Path runDir) throws IOException {
        TimeSeries series = new TimeSeries();
        LabelStats all = new LabelStats("all");
        List<Recordings.AggregateRow> aggregates;
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
            aggregates = reader.aggregates();
        }
        Recordings recordings = Recordings.read(runDir, aggregates);
        series.histograms = !recordings.isEmpty();
        recordings.bySecond(intervals -> intervals.forEach(i -> {
            series.add(i);
            all.add(i);
        }));
        series.targetRate = all.targetRate();
        return series;
    }

    void add(RecordedInterval i) {
        Second second = seconds.computeIfAbsent(Math.floorDiv(i.start(), 1000), k -> new Second());
        second.requests += i.counts().requests();
        second.failures += i.counts().failures();
        if (i.raw() != null) {
            second.raw.add(i.raw());
        }
        if (i.corrected() != null) {
            second.corrected.add(i.corrected());
        }
    }

    /** True when some seconds come from histograms mode's interval logs. */
    boolean histograms() {
        return histograms;
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
