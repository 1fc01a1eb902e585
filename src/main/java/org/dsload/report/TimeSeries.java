package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

import org.HdrHistogram.IntCountsHistogram;

/**
 * A run second by second: requests, failures and latency percentiles, raw and corrected; rows by
 * their start, histograms mode's intervals by the second they start in. A chart needs no more than
 * 2 significant digits per second (1 %), which keeps a long run's seconds small.
 */
public final class TimeSeries {
    static final int CHART_DIGITS = 2;

    /** One second of the run. */
    public static final class Second {
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
        series.histograms = read(jtl, runDir, series.faultMarkers::add, s -> {
            series.add(s);
            all.add(s);
        }, i -> {
            series.add(i);
            all.add(i);
        });
        series.targetRate = all.targetRate();
        return series;
    }

    /** Each label's seconds on its own (fault samples left out), labels in the order they first appear. */
    public static Map<String, TimeSeries> byLabel(Path jtl, Path runDir) throws IOException {
        Map<String, TimeSeries> labels = new LinkedHashMap<>();
        boolean histograms = read(jtl, runDir, marker -> { }, s -> labels.computeIfAbsent(s.label(), l -> new TimeSeries())
                .add(s), i -> labels.computeIfAbsent(i.label(), l -> new TimeSeries()).add(i));
        labels.values().forEach(series -> series.histograms = histograms);
        return labels;
    }

    /** Hands every row, fault sample and interval of histograms mode on; true when interval logs were read. */
    private static boolean read(Path jtl, Path runDir, Consumer<JtlSample> faultMarkers, Consumer<JtlSample> rows,
            Consumer<RecordedInterval> intervals) throws IOException {
        List<Recordings.AggregateRow> aggregates;
        try (JtlReader reader = new JtlReader(jtl).faultMarkers(true)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (JtlReader.isFaultMarker(s.label())) {
                    faultMarkers.accept(s);
                } else {
                    rows.accept(s);
                }
            }
            aggregates = reader.aggregates();
        }
        Recordings recordings = Recordings.read(runDir, aggregates);
        recordings.bySecond(seconds -> seconds.forEach(intervals));
        return !recordings.isEmpty();
    }

    /**
     * Each whole second's figure, the first and last second left out (a run rarely starts or ends on
     * a second's edge, so they hold a part of a second).
     */
    public double[] wholeSeconds(ToDoubleFunction<Second> figure) {
        if (seconds.size() <= 2) {
            return new double[0];
        }
        return seconds.values().stream().skip(1).limit(seconds.size() - 2L).mapToDouble(figure).toArray();
    }

    /** A second's p99 in microseconds ({@value #CHART_DIGITS} significant digits), 0 when it has no latencies. */
    public static double p99(Second second) {
        return second.raw.getTotalCount() == 0 ? 0 : second.raw.getValueAtPercentile(99);
    }

    /** A second's requests. */
    public static double requests(Second second) {
        return second.requests;
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
