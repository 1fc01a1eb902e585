package org.dsload.report;

import java.util.List;

/**
 * Whose limit a step that broke the limits met: the generator's, when its CPU was saturated, or
 * when arrivals were late or went unsent (every place in flight taken, every thread busy) while the
 * server still answered within the latency limits and the error limit; else the server's (a server
 * that slows down also makes arrivals late, but breaks a latency limit too).
 */
public final class Bottleneck {
    /**
     * A generator's CPU counts as saturated at this share of the machine. Not of a thread's share: a
     * thread that waits for its arrivals by spinning (redis-get-rate.jmx's) keeps its core busy at any rate.
     */
    public static final double SATURATED = 0.9;
    /** How to get past the generator's limit. */
    public static final String ADVICE = "To measure the server beyond it, give the generator more: more requests in flight"
            + " per thread (-Jin_flight=...), more threads (-Jthreads=...), or more generators (--slaves 2, -R host,...),"
            + " on a machine other than the server's if it shares its cores";

    private Bottleneck() {
    }

    /**
     * @param verdicts  every limit judged on the step's measured window
     * @param cpuPeak   the generator's highest per-second CPU share of the machine, 0 to 1 (NaN unknown)
     * @param unsent    scheduled arrivals went unsent (the run's own finding)
     */
    public static boolean generator(List<Limits.Verdict> verdicts, double cpuPeak, boolean unsent) {
        if (!Double.isNaN(cpuPeak) && cpuPeak >= SATURATED) {
            return true;
        }
        boolean late = unsent;
        boolean serverKept = true;
        for (Limits.Verdict v : verdicts) {
            if (v.figure().equals(Limits.LATE)) {
                late |= !v.held();
            } else {
                serverKept &= v.held();
            }
        }
        return late && serverKept;
    }
}
