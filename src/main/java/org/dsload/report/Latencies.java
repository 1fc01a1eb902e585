package org.dsload.report;

import org.HdrHistogram.Histogram;

/**
 * The latencies in microseconds of a label (or of several), as precise as their source allows:
 * exact while every value came from a results row ({@link ExactHistogram}, nearest rank over every
 * value), HdrHistogram's {@value HdrLatency#DIGITS} significant digits as soon as an engine's
 * interval log contributes (histograms mode); exact values added then or later are recorded into
 * the HdrHistogram with the same precision, so a mixed set merges without further loss.
 */
public final class Latencies {
    private final ExactHistogram exact = new ExactHistogram();
    private Histogram hdr;

    public void record(long micros) {
        if (hdr == null) {
            exact.record(micros);
        } else {
            hdr.recordValue(Math.max(0, micros));
        }
    }

    /** Adds an interval log's histogram. */
    public void add(Histogram interval) {
        toHdr().add(interval);
    }

    public void merge(Latencies other) {
        if (other.hdr != null) {
            toHdr().add(other.hdr);
        }
        if (hdr == null) {
            exact.merge(other.exact);
        } else {
            other.exact.forEach((v, n) -> hdr.recordValueWithCount(Math.max(0, v), n));
        }
    }

    private Histogram toHdr() {
        if (hdr == null) {
            hdr = HdrLatency.histogram();
            exact.forEach((v, n) -> hdr.recordValueWithCount(Math.max(0, v), n));
        }
        return hdr;
    }

    /** True while every value is exact (no interval log contributed). */
    public boolean exact() {
        return hdr == null;
    }

    public long count() {
        return hdr == null ? exact.count() : hdr.getTotalCount();
    }

    public long min() {
        return hdr == null ? exact.min() : count() == 0 ? 0 : hdr.getMinValue();
    }

    public long max() {
        return hdr == null ? exact.max() : count() == 0 ? 0 : hdr.getMaxValue();
    }

    public double mean() {
        return hdr == null ? exact.mean() : count() == 0 ? 0 : hdr.getMean();
    }

    /**
     * The percentile: exact nearest rank, or HdrHistogram's value at that percentile (the highest
     * value equivalent to it within the precision). 0 gives the minimum, 100 the maximum.
     */
    public long percentile(double p) {
        if (hdr == null) {
            return exact.percentile(p);
        }
        if (count() == 0) {
            return 0;
        }
        return p <= 0 ? min() : p >= 100 ? max() : hdr.getValueAtPercentile(p);
    }

    /** A copy of the HdrHistogram form (the exact values recorded into one), for charts and merges. */
    public Histogram histogram() {
        if (hdr != null) {
            return hdr.copy();
        }
        Histogram h = HdrLatency.histogram();
        exact.forEach((v, n) -> h.recordValueWithCount(Math.max(0, v), n));
        return h;
    }
}
