package org.dsload.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Limits on how far a run may move from a baseline run, label by label: a latency percentile may
 * rise by at most a share of the baseline's, the throughput fall by at most a share of it. Judged on
 * the same exact figures as {@link Limits} and given as its verdicts, so a build fails on a slower
 * run than last time as on a slow one.
 */
public final class BaselineLimits {

    private interface Limit {
        Limits.Verdict judge(LabelStats run, LabelStats baseline);
    }

    private final List<Limit> limits = new ArrayList<>();

    /** The percentile {@code percentile} (0 to 100) may rise by at most {@code maxRatio} of the baseline's. */
    public BaselineLimits maxPercentileIncrease(double percentile, double maxRatio) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("a percentile lies above 0 and at most 100, got " + percentile);
        }
        String figure = "p" + Limits.plain(percentile);
        limits.add((run, baseline) -> {
            String bound = "increase <= " + Limits.percent(maxRatio);
            if (run.samplesWithoutLatency() > 0 || baseline.samplesWithoutLatency() > 0) {
                return new Limits.Verdict(run.label(), figure, bound, false, figure + " cannot be judged: samples of"
                        + " the run or of the baseline have no latency (their engines' interval logs are not in the run"
                        + " folder)");
            }
            long measured = run.latencies().percentile(percentile);
            long before = baseline.latencies().percentile(percentile);
            double change = change(before, measured);
            boolean held = change <= maxRatio;
            return new Limits.Verdict(run.label(), figure, bound, held, figure + " " + Limits.micros(measured)
                    + " against " + Limits.micros(before) + " in the baseline: " + signedPercent(change)
                    + (held ? ", within +" : ", above the limit +") + Limits.percent(maxRatio));
        });
        return this;
    }

    /** The throughput (successful requests per second) may fall by at most {@code maxRatio} of the baseline's. */
    public BaselineLimits maxThroughputDecrease(double maxRatio) {
        limits.add((run, baseline) -> {
            double change = change(baseline.throughput(), run.throughput());
            boolean held = -change <= maxRatio;
            return new Limits.Verdict(run.label(), "throughput", "decrease <= " + Limits.percent(maxRatio), held,
                    "throughput " + perSecond(run.throughput()) + " against " + perSecond(baseline.throughput())
                    + " in the baseline: " + signedPercent(change)
                    + (held ? ", within -" : ", below the limit -") + Limits.percent(maxRatio));
        });
        return this;
    }

    public boolean isEmpty() {
        return limits.isEmpty();
    }

    /**
     * Every limit judged on a label of the run against the same label of the baseline; a label without
     * requests in either fails whatever the limits.
     */
    public List<Limits.Verdict> judge(LabelStats run, LabelStats baseline) {
        if (run.requests() == 0) {
            return List.of(Limits.noRequests(run.label()));
        }
        if (baseline == null || baseline.requests() == 0) {
            return List.of(new Limits.Verdict(run.label(), "requests", "in the baseline", false,
                    "no requests in the baseline, so there is nothing to compare with"));
        }
        List<Limits.Verdict> verdicts = new ArrayList<>();
        for (Limit limit : limits) {
            verdicts.add(limit.judge(run, baseline));
        }
        return verdicts;
    }

    /** The change from {@code before} to {@code after} as a share of {@code before} (0 when both are 0). */
    public static double change(double before, double after) {
        if (before == 0) {
            return after == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return (after - before) / before;
    }

    /** A change as a signed percentage with 2 decimals at most: +12.5%, -3%, +0%. */
    public static String signedPercent(double ratio) {
        if (Double.isInfinite(ratio)) {
            return "+inf%";
        }
        BigDecimal d = BigDecimal.valueOf(ratio * 100).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros();
        String text = d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
        return (d.signum() >= 0 ? "+" : "") + text + "%";
    }

    static String perSecond(double rate) {
        return BigDecimal.valueOf(rate).setScale(2, RoundingMode.HALF_UP).toPlainString() + "/s";
    }
}
