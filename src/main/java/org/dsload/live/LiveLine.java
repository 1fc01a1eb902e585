package org.dsload.live;

import java.util.Locale;
import java.util.Map;

import org.dsload.report.Durations;

/**
 * The live line of a run: what the last interval did (requests, rate, exact p50 and p99 over every
 * engine, errors, late arrivals), the totals so far, the engines still running and their generator
 * CPU.
 */
public final class LiveLine {
    /** What starts every live line; the runner tells it from JMeter's other output by it. */
    public static final String PREFIX = "dsload live: ";

    /**
     * @param p50Micros {@code -1} when the interval had no request, as {@code p99Micros}
     * @param cpu        generator CPU by engine, per cent of the machine's cores
     * @param targetRate arrivals per second the engines' schedules aim at together, 0 when none is known
     */
    public record Figures(long requests, long errors, long late, long p50Micros, long p99Micros, long totalRequests,
            long totalErrors, long totalLate, long totalDropped, int enginesRunning, int engines, Map<String, Double> cpu,
            double targetRate) {
    }

    private LiveLine() {
    }

    /**
     * @param elapsedSeconds  since the test started
     * @param plannedSeconds  the planned length of the test, or -1 when not known
     * @param intervalSeconds what {@code f}'s interval lasted
     */
    public static String format(long elapsedSeconds, long plannedSeconds, double intervalSeconds, Figures f) {
        StringBuilder line = new StringBuilder(PREFIX).append(clock(elapsedSeconds));
        if (plannedSeconds > 0) {
            line.append('/').append(clock(plannedSeconds));
        }
        line.append(" | ").append(f.totalRequests()).append(" requests, ")
                .append(String.format(Locale.ROOT, "%.0f/s", intervalSeconds > 0 ? f.requests() / intervalSeconds : 0));
        if (f.targetRate() > 0) {
            line.append(String.format(Locale.ROOT, " of %.0f/s", f.targetRate()));
        }
        if (f.requests() > 0) {
            line.append(" p50 ").append(Durations.format(f.p50Micros() / 1000.0)).append(" p99 ")
                    .append(Durations.format(f.p99Micros() / 1000.0));
        } else {
            line.append(" p50 - p99 -");
        }
        line.append(" | errors ").append(f.totalErrors());
        if (f.errors() > 0) {
            line.append(" (+").append(f.errors()).append(')');
        }
        line.append(" | late ").append(f.totalLate());
        if (f.totalDropped() > 0) {
            line.append(", dropped ").append(f.totalDropped());
        }
        line.append(" | engines ").append(f.enginesRunning()).append('/').append(f.engines());
        if (!f.cpu().isEmpty()) {
            line.append(" | cpu");
            f.cpu().forEach((engine, percent) -> line.append(' ').append(engine).append(' ')
                    .append(String.format(Locale.ROOT, "%.0f%%", percent)));
        }
        return line.toString();
    }

    static String clock(long seconds) {
        long s = Math.max(0, seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
