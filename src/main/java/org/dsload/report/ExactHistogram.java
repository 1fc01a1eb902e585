package org.dsload.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts of whole-number values (latencies in microseconds), one counter per distinct value, so
 * percentiles read from them are exact and two histograms merge without loss (per-slave figures
 * into whole-run ones). Values below 60,000 sit in an array grown on demand, rarer larger ones
 * in a sorted map.
 */
public final class ExactHistogram {
    private static final int DENSE_LIMIT = 60_000;

    private long[] dense = new long[256];
    private final TreeMap<Long, Long> sparse = new TreeMap<>();
    private long count;
    private double sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    public void record(long value) {
        record(value, 1);
    }

    public void record(long value, long times) {
        if (times <= 0) {
            return;
        }
        long v = Math.max(0, value);
        if (v < DENSE_LIMIT) {
            if (v >= dense.length) {
                dense = Arrays.copyOf(dense, (int) Math.min(DENSE_LIMIT, Math.max(v + 1, dense.length * 2L)));
            }
            dense[(int) v] += times;
        } else {
            sparse.merge(v, times, Long::sum);
        }
        count += times;
        sum += (double) v * times;
        min = Math.min(min, v);
        max = Math.max(max, v);
    }

    public void merge(ExactHistogram other) {
        for (int v = 0; v < other.dense.length; v++) {
            if (other.dense[v] != 0) {
                record(v, other.dense[v]);
            }
        }
        for (Map.Entry<Long, Long> e : other.sparse.entrySet()) {
            record(e.getKey(), e.getValue());
        }
    }

    public long count() {
        return count;
    }

    /** Every distinct value with how often it was recorded, smallest first. */
    public void forEach(java.util.function.BiConsumer<Long, Long> valueAndCount) {
        for (int v = 0; v < dense.length; v++) {
            if (dense[v] != 0) {
                valueAndCount.accept((long) v, dense[v]);
            }
        }
        sparse.forEach(valueAndCount);
    }

    public long min() {
        return count == 0 ? 0 : min;
    }

    public long max() {
        return count == 0 ? 0 : max;
    }

    public double mean() {
        return count == 0 ? 0 : sum / count;
    }

    /**
     * The nearest-rank percentile: the smallest recorded value that at least {@code p} percent of
     * the values do not exceed. 0 gives the minimum, 100 the maximum.
     */
    public long percentile(double p) {
        if (count == 0) {
            return 0;
        }
        if (p <= 0) {
            return min();
        }
        // Decimal arithmetic: 90 % of 10 values must be rank 9, not the 10 a binary 0.9 gives.
        long rank = BigDecimal.valueOf(Math.min(100.0, p)).multiply(BigDecimal.valueOf(count))
                .divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING).longValueExact();
        rank = Math.max(1, rank);
        long seen = 0;
        for (int v = 0; v < dense.length; v++) {
            seen += dense[v];
            if (seen >= rank) {
                return v;
            }
        }
        for (Map.Entry<Long, Long> e : sparse.entrySet()) {
            seen += e.getValue();
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return max;
    }
}
