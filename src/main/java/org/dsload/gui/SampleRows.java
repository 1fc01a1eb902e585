package org.dsload.gui;

import org.apache.jmeter.samplers.SampleResult;
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
