package org.dsload.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Limits a run's figures must stay within, judged on the exact summary: latency percentiles
 * (nearest rank over every sample, the figures the summary prints) and the share of failed
 * requests. A build fails on them through {@code dsload check}.
 */
public final class Limits {

    /**
     * The outcome of one limit for one label.
     *
     * @param bound what the limit asks of the figure, as in {@code <= 20ms}
     */
    public record Verdict(String label, String figure, String bound, boolean held, String text) {
        public String line() {
            return String.format(Locale.ROOT, "%-7s %s: %s", held ? "ok" : "FAILED", label, text);
        }
    }

    private interface Limit {
        Verdict judge(LabelStats stats);
    }

    /** The figure of the late-arrivals limit's verdicts. */
    public static final String LATE = "late arrivals";
    /** The figure of the error-rate limit's verdicts. */
    public static final String ERRORS = "error rate";

    private final List<Limit> limits = new ArrayList<>();

    /** The percentile {@code percentile} (0 to 100) of the latencies must not exceed {@code maxMicros}. */
    public Limits maxPercentile(double percentile, long maxMicros) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("a percentile lies above 0 and at most 100, got " + percentile);
        }
        String figure = "p" + plain(percentile);
        limits.add(stats -> {
            if (stats.samplesWithoutLatency() > 0) {
                return new Verdict(stats.label(), figure, "<= " + micros(maxMicros), false, figure
                        + " cannot be judged: "
                        + stats.samplesWithoutLatency() + " samples have no latency (their engines' interval logs "
                        + "are not in the run folder)");
            }
            long measured = stats.latencies().percentile(percentile);
            boolean held = measured <= maxMicros;
            String precision = stats.latencies().exact() ? "" : " (HdrHistogram, " + HdrLatency.DIGITS
                    + " significant digits, from the engines' interval logs)";
            return new Verdict(stats.label(), figure, "<= " + micros(maxMicros), held, figure + " " + micros(measured)
                    + precision
                    + (held ? ", within " : " is above the limit ") + micros(maxMicros));
        });
        return this;
    }

    /** At most this share (0 to 1) of the requests may fail. */
    public Limits maxErrorRatio(double maxRatio) {
        if (!(maxRatio >= 0 && maxRatio <= 1)) {
            throw new IllegalArgumentException("an error ratio lies between 0 and 1, got " + maxRatio);
        }
        limits.add(stats -> {
            long failed = stats.requests() - stats.successes();
            double ratio = stats.requests() == 0 ? 0 : (double) failed / stats.requests();
            boolean held = ratio <= maxRatio;
            return new Verdict(stats.label(), ERRORS, "<= " + percent(maxRatio), held, "error rate " + percent(ratio)
                    + " (" + failed
                    + " of " + stats.requests() + " requests failed)"
                    + (held ? ", within " : " is above the limit ") + percent(maxRatio));
        });
        return this;
    }

    /**
     * At most this share (0 to 1) of the scheduled arrivals may be late (started more than the
     * summary's late threshold after their intended start) or dropped; figures without an arrival
     * schedule keep it.
     */
    public Limits maxLateRatio(double maxRatio) {
        if (!(maxRatio >= 0 && maxRatio <= 1)) {
            throw new IllegalArgumentException("a late share lies between 0 and 1, got " + maxRatio);
        }
        limits.add(stats -> {
            double ratio = lateRatio(stats);
            boolean held = ratio <= maxRatio;
            return new Verdict(stats.label(), LATE, "<= " + percent(maxRatio), held, "late arrivals " + percent(ratio)
                    + " (" + (stats.lateArrivals()
                    + stats.droppedArrivals()) + " of " + stats.arrivals() + " late by more than "
                    + micros(stats.lateMicros()) + " or dropped)" + (held ? ", within " : " is above the limit ")
                    + percent(maxRatio));
        });
        return this;
    }

    /** The share of the scheduled arrivals that were late or dropped; 0 without a schedule. */
    public static double lateRatio(LabelStats stats) {
        return stats.arrivals() == 0 ? 0 : (double) (stats.lateArrivals() + stats.droppedArrivals()) / stats.arrivals();
    }

    public boolean isEmpty() {
        return limits.isEmpty();
    }

    /** Every limit judged on these figures; figures without a single request fail whatever the limits. */
    public List<Verdict> judge(LabelStats stats) {
        if (stats.requests() == 0) {
            return List.of(noRequests(stats.label()));
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (Limit limit : limits) {
            verdicts.add(limit.judge(stats));
        }
        return verdicts;
    }

    /** The verdict on a label without a single request, which fails whatever the limits. */
    static Verdict noRequests(String label) {
        return new Verdict(label, "requests", "> 0", false,
                "no requests, so nothing shows the limits were kept");
    }

    static String micros(long micros) {
        return Durations.format(micros / 1000.0);
    }

    static String percent(double ratio) {
        return plain(ratio * 100) + "%";
    }

    static String plain(double value) {
        BigDecimal d = BigDecimal.valueOf(value).setScale(4, java.math.RoundingMode.HALF_UP).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}
