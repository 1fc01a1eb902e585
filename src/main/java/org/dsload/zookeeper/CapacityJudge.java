package org.dsload.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.report.ExactHistogram;

/**
 * The arithmetic of a stepped capacity search: step k starts k step-lengths after the test and
 * runs {@code start + k * step} units (domains), capped at the maximum; a step passes when its
 * error ratio and p99 stay within the bounds. The capacity is the load of the last step that
 * passed before the first that did not.
 */
final class CapacityJudge {
    private final int start;
    private final int step;
    private final int max;
    private final long stepMillis;
    private final double maxErrorPercent;
    private final long maxP99Micros;
    private final String unit;
    private final List<Window> windows = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();
    private int judged;
    private Integer capacity;
    private String verdict;

    /** Samples of one step. */
    private static final class Window {
        final ExactHistogram micros = new ExactHistogram();
        long errors;
    }

    CapacityJudge(int start, int step, int max, long stepMillis, double maxErrorPercent, long maxP99Micros, String unit) {
        this.start = start;
        this.step = step;
        this.max = max;
        this.stepMillis = stepMillis;
        this.maxErrorPercent = maxErrorPercent;
        this.maxP99Micros = maxP99Micros;
        this.unit = unit;
    }

    int steps() {
        return max <= start ? 1 : (max - start + step - 1) / step + 1;
    }

    int unitsAt(int k) {
        return Math.min(max, start + k * step);
    }

    /**
     * Adds a sample that started {@code sinceStart} ms after the test did.
     *
     * @return true when this sample closed a step that failed: the search is over
     */
    boolean add(long sinceStart, long micros, boolean success) {
        int k = (int) Math.min(steps() - 1, Math.max(0, sinceStart / stepMillis));
        while (windows.size() <= k) {
            windows.add(new Window());
        }
        Window w = windows.get(k);
        w.micros.record(micros);
        if (!success) {
            w.errors++;
        }
        // Samples arrive when they end: a step is judged only once a sample that started a fifth of
        // a step after it shows that its late samples are in.
        int closed = (int) Math.min(steps() - 1, Math.max(0, (sinceStart - stepMillis / 5) / stepMillis));
        boolean over = false;
        while (verdict == null && judged < closed) {
            over = judge(judged++);
        }
        return over;
    }

    /** Judges what is left at the end of the test. */
    void finish() {
        while (verdict == null && judged < windows.size()) {
            judge(judged++);
        }
        if (verdict == null) {
            if (capacity == null) {
                verdict = "no step passed: not even " + unitsAt(0) + " " + unit + " met the bounds";
            } else if (judged >= steps()) {
                verdict = "at least " + capacity + " " + unit + ": every step passed (raise the maximum to find the limit)";
            } else {
                verdict = capacity + " " + unit + " passed; the test ended before step " + (judged + 1) + " of " + steps();
            }
        }
    }

    private boolean judge(int k) {
        Window w = windows.get(k);
        long n = w.micros.count();
        double errorPercent = n == 0 ? 0 : 100.0 * w.errors / n;
        long p99 = w.micros.percentile(99);
        String problem = null;
        if (n == 0) {
            problem = "no samples";
        } else if (errorPercent > maxErrorPercent) {
            problem = String.format(Locale.ROOT, "errors %.2f%% > %.2f%%", errorPercent, maxErrorPercent);
        } else if (p99 > maxP99Micros) {
            problem = "p99 " + p99 / 1000 + " ms > " + maxP99Micros / 1000 + " ms";
        }
        lines.add(String.format(Locale.ROOT, "step %d: %d %s, %d samples, errors %.2f%%, p99 %d ms: %s", k + 1,
                unitsAt(k), unit, n, errorPercent, p99 / 1000, problem == null ? "ok" : "FAILED (" + problem + ")"));
        if (problem == null) {
            capacity = unitsAt(k);
            return false;
        }
        verdict = (capacity == null ? "no step passed" : "capacity reached: " + capacity + " " + unit)
                + " (step " + (k + 1) + " with " + unitsAt(k) + " " + unit + " failed: " + problem + ")";
        return true;
    }

    List<String> lines() {
        return lines;
    }

    String verdict() {
        return verdict;
    }
}
