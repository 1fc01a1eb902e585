package org.dsload.report;

import java.util.Arrays;

/**
 * Latencies in microseconds counted in buckets 1 % wide (exact below 100 µs), for per-second
 * percentiles on charts: small whatever the run's length, unlike {@link ExactHistogram}, whose
 * exactness the summary needs and a chart does not.
 */
final class CoarseHistogram {
    private static final double LOG_STEP = Math.log(1.01);
    private int[] counts = new int[128];
    private long count;

    static int bucket(long micros) {
        long v = Math.max(0, micros);
        return v < 100 ? (int) v : 100 + (int) (Math.log(v / 100.0) / LOG_STEP);
    }

    /** The smallest value of a bucket. */
    static long lowerBound(int bucket) {
        return bucket < 100 ? bucket : (long) Math.ceil(100 * Math.exp((bucket - 100) * LOG_STEP));
    }

    void record(long micros) {
        int b = bucket(micros);
        if (b >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(b + 1, counts.length * 2));
        }
        counts[b]++;
        count++;
    }

    long count() {
        return count;
    }

    /** Nearest-rank percentile, as the lower bound of its bucket (within 1 %). */
    long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return lowerBound(b);
            }
        }
        return lowerBound(counts.length - 1);
    }
}
