package org.dsload.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.report.LabelStats;

/**
 * The main job's verdict on a scenario whose run finished: {@code ok} when its measured window (the
 * run without its warm-up) kept its schedule, at most {@value #MAX_LATE_PERCENT} % of its arrivals
 * late or dropped, and its success ratio; otherwise {@code missed: <what>}. A miss is a finding about
 * the machine the job ran on (too few cores for the rate, a server that fell behind), not a failed run.
 */
public record ScenarioVerdict(List<String> misses) {
    public static final double MAX_LATE_PERCENT = 0.1;

    public static ScenarioVerdict of(LabelStats measured, double minSuccessRatio) {
        return of(measured, minSuccessRatio, null);
    }

    /**
     * @param unsent the run's finding of scheduled arrivals it did not send (its exit code 6), or null:
     *               a miss of the schedule too
     */
    public static ScenarioVerdict of(LabelStats measured, double minSuccessRatio, String unsent) {
        List<String> misses = new ArrayList<>();
        if (unsent != null) {
            int at = unsent.indexOf("scheduled arrivals went unsent: ");
            misses.add("schedule, " + (at >= 0 ? unsent.substring(at + "scheduled ".length()) : unsent.strip()));
        }
        long arrivals = measured.arrivals();
        long behind = measured.lateArrivals() + measured.droppedArrivals();
        if (arrivals > 0 && behind * 100.0 > arrivals * MAX_LATE_PERCENT) {
            misses.add(String.format(Locale.ROOT, "schedule, %d of %d arrivals late%s (%s %%, at most %s %%)",
                    measured.lateArrivals(), arrivals,
                    measured.droppedArrivals() > 0 ? " and " + measured.droppedArrivals() + " dropped" : "",
                    percent(behind * 100.0 / arrivals), percent(MAX_LATE_PERCENT)));
        }
        if (measured.requests() > 0 && measured.successRatio() < minSuccessRatio) {
            misses.add(String.format(Locale.ROOT, "success ratio, %s %% (at least %s %%)",
                    percent(measured.successRatio() * 100), percent(minSuccessRatio * 100)));
        }
        return new ScenarioVerdict(List.copyOf(misses));
    }

    public boolean ok() {
        return misses.isEmpty();
    }

    /** {@code ok}, or {@code missed: } and what was missed. */
    public String text() {
        return ok() ? "ok" : "missed: " + String.join("; ", misses);
    }

    /** Two decimals, fewer when they are zeros: 0.1, 24.37, 99.9. */
    private static String percent(double value) {
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.2f", value)).stripTrailingZeros().toPlainString();
    }
}
