package org.dsload.gui;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.format.BatchTiming;
import org.dsload.report.AggregateRowText;
import org.dsload.report.BatchRows;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.RecordedInterval;
import org.dsload.report.RecordingFormat;

/**
 * A sample as the summary reads it from a results file, built from the live result instead, so
 * that the listener's figures are the ones {@code dsload summary} prints for the same run.
 */
final class SampleRows {
    private SampleRows() {
    }

    /**
     * The requests of a sample as the summary reads them from a results file: the sample itself, or
     * one per request of a batch row ({@link BatchTiming}).
     */
    static List<JtlSample> requests(SampleResult r, String timing) {
        String value = timing == null ? "" : timing;
        List<BatchTiming.Entry> batch = BatchTiming.parse(value, r.getStartTime(), r.getTime());
        if (batch == null) {
            return List.of(of(r, value));
        }
        return BatchRows.expand(of(r, ""), BatchTiming.rowStart(value), batch);
    }

    /**
     * A histograms-mode aggregate row as the interval it stands for: its counts, its code, and its
     * latencies when the row carries them (in its request text); null for any other row.
     */
    static RecordedInterval aggregate(SampleResult r, String timing) {
        String engine = RecordingFormat.aggregateEngine(timing);
        if (engine == null) {
            return null;
        }
        long requests = Math.max(1, r.getSampleCount());
        long failures = Math.min(requests, r.getErrorCount());
        String code = nonNull(r.getResponseCode());
        List<RecordedInterval.Code> codes = new java.util.ArrayList<>();
        if (failures > 0) {
            codes.add(new RecordedInterval.Code(code, false, failures, nonNull(r.getResponseMessage())));
        }
        if (failures < requests) {
            codes.add(new RecordedInterval.Code(failures > 0 ? "(not in the row)" : code, true, requests - failures, ""));
        }
        Histogram raw = AggregateRowText.raw(r.getSamplerData());
        long start = r.getStartTime();
        RecordedInterval.Counts counts = new RecordedInterval.Counts(raw == null ? requests : raw.getTotalCount(),
                requests, failures, r.getSentBytes(), r.getBytesAsLong(), r.getTime(), start, start, start + 1000, 0, 0,
                0, 0, 0, 0, 0, java.util.Map.of());
        return new RecordedInterval(engine, r.getSampleLabel(), start, start + 1000, counts, codes, raw,
                AggregateRowText.corrected(r.getSamplerData()));
    }

    /**
     * @param timing the sample's {@code dsload_timing} value ({@code <start ms>:<µs>}), or empty;
     *               a value left by an earlier sample of the thread is ignored, as in a file
     */
    static JtlSample of(SampleResult r, String timing) {
        long micros = JtlReader.micros(timing == null ? "" : timing, r.getStartTime(), r.getTime());
        String failure = r.getFirstAssertionFailureMessage();
        return new JtlSample(
                r.getStartTime(),
                r.getTime(),
                micros < 0 ? r.getTime() * 1000 : micros,
                r.getSampleLabel(),
                nonNull(r.getResponseCode()),
                nonNull(r.getResponseMessage()),
                r.isSuccessful(),
                r.getBytesAsLong(),
                r.getSentBytes(),
                r.getLatency(),
                r.getConnectTime(),
                Math.max(1, r.getSampleCount()),
                "",
                nonNull(r.getThreadName()),
                nonNull(failure),
                micros >= 0);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
