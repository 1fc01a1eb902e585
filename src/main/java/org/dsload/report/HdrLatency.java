package org.dsload.report;

import org.HdrHistogram.Histogram;

/**
 * The one HdrHistogram configuration dsload uses for latencies in microseconds: whatever a chart
 * draws per second and whatever an engine records in histograms mode, so that histograms from
 * either merge without loss.
 */
public final class HdrLatency {
    /** Significant decimal digits kept: a value is known to within 1 part in 1,000 (0.1 %). */
    public static final int DIGITS = 3;

    /** How percentiles read from such histograms are defined, for reports that print them. */
    public static final String METHOD = "HdrHistogram with " + DIGITS + " significant digits (each value within 0.1 %)";

    private HdrLatency() {
    }

    /** An empty histogram that grows to any value it is given. */
    public static Histogram histogram() {
        return new Histogram(DIGITS);
    }
}
