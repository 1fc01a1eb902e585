package org.dsload.arrivals;

import java.util.List;
import java.util.Random;

import org.apache.jmeter.threads.openmodel.ThreadSchedule;
import org.apache.jmeter.threads.openmodel.ThreadScheduleProcessGenerator;
import org.apache.jmeter.threads.openmodel.ThreadScheduleStep;
import org.apache.jmeter.threads.openmodel.ThreadScheduleUtils;

/**
 * The arrival times JMeter's Open Model Thread Group works from, computed again with JMeter's own
 * generator from the group's schedule and random seed: thread number n of the group is the n-th
 * arrival, due at {@code test start + round(time(n) * 1000)} ms, as the group's thread starter
 * computes it. Threads ask in about the order they were started, so a window of recent times is
 * kept rather than all of them.
 *
 * <p>A schedule with {@code random_arrivals} and no random seed (0) draws a new sequence in the
 * group that cannot be drawn again here; {@link #reproducible} tells.
 */
final class OpenModelTimes {
    private static final int WINDOW = 1 << 17;

    private final ThreadScheduleProcessGenerator generator;
    private final double[] times = new double[WINDOW];
    private long generated;

    private OpenModelTimes(ThreadScheduleProcessGenerator generator) {
        this.generator = generator;
    }

    /**
     * @throws IllegalArgumentException when JMeter cannot parse the schedule
     */
    static OpenModelTimes of(String schedule, long seed) {
        ThreadSchedule parsed;
        try {
            parsed = ThreadScheduleUtils.ThreadSchedule(schedule);
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the schedule '" + schedule + "': " + e.getMessage(), e);
        }
        if (seed == 0 && hasRandomArrivals(parsed.getSteps())) {
            return new OpenModelTimes(null);
        }
        return new OpenModelTimes(new ThreadScheduleProcessGenerator(seed == 0 ? new Random() : new Random(seed), parsed));
    }

    private static boolean hasRandomArrivals(List<ThreadScheduleStep> steps) {
        return steps.stream().anyMatch(step -> step instanceof ThreadScheduleStep.ArrivalsStep arrivals
                && arrivals.getType() == ThreadScheduleStep.ArrivalType.RANDOM);
    }

    boolean reproducible() {
        return generator != null;
    }

    /** Seconds from the test start to arrival n, or NaN when unknown (not reproducible, past the end, too old). */
    synchronized double secondsOf(long n) {
        if (generator == null || n < generated - WINDOW || n < 0) {
            return Double.NaN;
        }
        while (generated <= n) {
            if (!generator.hasNext()) {
                return Double.NaN;
            }
            times[(int) (generated % WINDOW)] = generator.nextDouble();
            generated++;
        }
        return times[(int) (n % WINDOW)];
    }
}
