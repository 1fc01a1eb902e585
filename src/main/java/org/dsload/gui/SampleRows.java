package org.dsload.gui;

import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.report.BatchRows;
import org.dsload.report.BatchTiming;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;

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
