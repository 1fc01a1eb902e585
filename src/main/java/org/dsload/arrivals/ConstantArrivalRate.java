package org.dsload.arrivals;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContext;
import org.dsload.core.ArrivalSource;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.IntendedStart;
import org.dsload.report.WarmUp;

/**
 * dsload Constant Arrival Rate: open-model arrivals for a classic thread group. The threads of
 * the group share one schedule of evenly spaced arrivals at the target rate; before each sample
 * in scope a thread takes the next arrival and waits for its time. The thread count is the cap
 * on concurrency: when every thread is busy (a slow server), arrivals fall behind, start late and
 * count their wait in the corrected latency, or are dropped past the drop limit; nothing is
 * silently slowed down, and no thread is ever added.
 *
 * <p>A ramp-up ({@code rampUp} seconds, 0 by default) raises the rate evenly from 0 to the target over its
 * first seconds, so that a cold JVM compiles its request path and opens its connections at a rate it can keep,
 * not behind a backlog: a plan's warm-up takes it, its measured window none.
 *
 * <p>A warm-up ({@code warmUp} seconds, 0 by default) makes the schedule's first seconds a warm-up: their
 * arrivals are sent by the same threads and samplers at the same rate, and their samples are labelled as the
 * sampler followed by {@code " (warm-up)"}, which the reports show apart and the verdicts leave out. Unlike a
 * warm-up thread group before the measured one, nothing starts anew at the measured window: the threads, their
 * connections and the code the JVM compiled for them (JMeter's own loop of a thread among it) carry on.
 *
 * <p>A rate of 0 is no schedule at all: the samplers in scope run unpaced, as without this element (a
 * closed loop), which lets a plan make pacing a property ({@code -Jtarget=0}, YCSB's unthrottled run).
 *
 * <p>The rate is read before every sample (JMeter prepares a timer's fields each time, so
 * {@code ${__P(rate)}} follows a property set during the test): a new rate takes effect at the next
 * arrival a thread takes, from that moment on; slots of the old rate still overdue then are not
 * sent.
 *
 * <p>A dsload sampler that paces itself ({@link IntendedStart.SelfPaced}) is offered the schedule
 * instead: it takes the arrivals and waits for each to the microsecond (JMeter's timer sleep is in
 * whole milliseconds), and a sampler that keeps requests in flight takes one for each free place,
 * so that its in-flight limit times the thread count is the cap.
 */
// Listed under Timers only: it is a post-processor too, to stamp samples of JMeter's own samplers.
@TestElementMetadata(labelResource = "displayName", actionGroups = MenuFactory.TIMERS)
public class ConstantArrivalRate extends ArrivalElement implements ThreadListener {
    private static final long serialVersionUID = 1L;

    private String rate = "100";
    private String dropAfter = "0";
    private String rampUp = "0";
    private String warmUp = "0";

    private transient Settings settings;
    /** This thread's view of the group's schedule, for self-paced samplers. */
    private transient ScheduleSource source;
    /** The schedule this thread took slots of for other samplers. */
    private transient EvenSchedule taker;

    private record Settings(String rate, String dropAfter, String rampUp, String warmUp, double perSecond,
            long dropAfterNanos, long rampNanos, long warmUpNanos) {
    }

    @Override
    public long delay() {
        Settings s;
        try {
            s = settings();
        } catch (ConfigException e) {
            throw refuse(e);
        }
        if (s.perSecond() == 0) {
            return 0; // no schedule: the samplers in scope run as they would without this element
        }
        JMeterContext context = getThreadContext();
        long now = System.nanoTime();
        EvenSchedule schedule = ArrivalState.of(context.getThreadGroup(), getName(),
                () -> {
                    GeneratorMetrics.targetRate(ConstantArrivalRate::targetRate);
                    return new EvenSchedule(now, s.perSecond(), s.rampNanos(), s.dropAfterNanos(), s.warmUpNanos());
                });
        // A rate that changed during the test (a property the plan reads, set anew: the Rate Search
        // element's steps) starts from now on, without the old rate's overdue slots.
        schedule.rebase(now, s.perSecond());
        Sampler current = context.getCurrentSampler();
        if (current instanceof IntendedStart.SelfPaced) {
            if (source == null || source.schedule != schedule) {
                markWarmUp(schedule, current);
                source = new ScheduleSource(schedule, IntendedStart.threadEndNanos());
                schedule.threadTakes(source.endNanos);
            }
            IntendedStart.offer(current, source);
            return 0;
        }
        long endTime = context.getThread() == null ? 0 : context.getThread().getEndTime();
        if (taker != schedule) {
            markWarmUp(schedule, current);
            taker = schedule;
            schedule.threadTakes(endTime > 0 ? IntendedStart.nanosOfEpochMillis(endTime) : Long.MAX_VALUE);
        }
        if (endTime > 0) {
            // A slot due after the thread group's end is left untaken: taken, it would be lost
            // when JMeter stops the thread instead of sampling.
            long nowMillis = System.currentTimeMillis();
            long dueMillis = nowMillis + (schedule.nextDueNanos() - now) / 1_000_000;
            if (dueMillis >= endTime) {
                return endTime - nowMillis + 1;
            }
        }
        EvenSchedule.Slot slot = schedule.take(now);
        schedule.countDropped(slot.dropped());
        IntendedStart.set(new IntendedStart.Stamp(context.getCurrentSampler(), slot.dueNanos(), slot.dropped(),
                ArrivalSource.warmUp(slot.dueNanos(), schedule.measuredFromNanos())));
        long wait = slot.dueNanos() - System.nanoTime();
        // Whole milliseconds, rounded up: the sample starts at or just after its time, never before.
        return wait <= 0 ? 0 : (wait + 999_999) / 1_000_000;
    }

    /** A schedule whose slots a warm-up's sampler takes is a warm-up's: its drops and misses are counted apart. */
    private static void markWarmUp(EvenSchedule schedule, Sampler sampler) {
        if (sampler != null && WarmUp.is(sampler.getName())) {
            schedule.warmUp();
        }
    }

    /** Slots of the group's schedule due before this thread's end. */
    private static final class ScheduleSource implements ArrivalSource {
        final EvenSchedule schedule;
        final long endNanos;

        ScheduleSource(EvenSchedule schedule, long endNanos) {
            this.schedule = schedule;
            this.endNanos = endNanos;
        }

        @Override
        public Arrival take(long nowNanos) {
            EvenSchedule.Slot slot = schedule.takeBefore(nowNanos, endNanos);
            if (slot == null) {
                return null;
            }
            schedule.countDropped(slot.dropped());
            return new Arrival(slot.dueNanos(), slot.dropped());
        }

        @Override
        public void ready(long nowNanos) {
            schedule.startAt(nowNanos);
        }

        @Override
        public long measuredFromNanos() {
            return schedule.measuredFromNanos();
        }

        @Override
        public long dropUntil(long untilNanos) {
            long dropped = schedule.skipUntil(untilNanos, endNanos);
            schedule.countDropped(dropped);
            return dropped;
        }

        @Override
        public void dropped(long count) {
            schedule.countDropped(count);
        }
    }

    /** The thread's end for the schedule of its group (a sampler thread that took none leaves it alone). */
    @Override
    public void threadFinished() {
        EvenSchedule taken = source != null ? source.schedule : taker;
        if (taken != null) {
            taken.threadFinished(System.nanoTime());
        }
    }

    @Override
    public void threadStarted() {
        // the schedule is made at the group's first arrival
    }

    /**
     * Slots due before the schedule's end that no thread took are missed: counted before the last figures are
     * written, a warm-up's apart.
     */
    @Override
    public void testEnded() {
        ArrivalState.all(EvenSchedule.class).forEach(EvenSchedule::countMissed);
        super.testEnded();
    }

    /** The arrivals per second of the engine's schedules whose threads take slots now, together. */
    static double targetRate() {
        long now = System.nanoTime();
        return ArrivalState.all(EvenSchedule.class).stream().filter(s -> s.active(now)).mapToDouble(s -> s.perSecond(now))
                .sum();
    }

    private Settings settings() {
        Settings current = settings;
        if (current != null && current.rate().equals(rate) && current.dropAfter().equals(dropAfter)
                && current.rampUp().equals(rampUp) && current.warmUp().equals(warmUp)) {
            return current;
        }
        Fields f = new Fields(ConstantArrivalRate.class, getName());
        double perSecond = Rates.perSecondOrNone(f, "rate", rate);
        long dropMillis = f.longValue("dropAfter", dropAfter, 0, Long.MAX_VALUE / 1_000_000);
        double rampSeconds = seconds(f, "rampUp", rampUp);
        double warmUpSeconds = seconds(f, "warmUp", warmUp);
        current = new Settings(rate, dropAfter, rampUp, warmUp, perSecond, dropMillis * 1_000_000,
                Math.round(rampSeconds * 1e9), Math.round(warmUpSeconds * 1e9));
        settings = current;
        return current;
    }

    /** Seconds of ramp-up or warm-up: none in a plan saved before the field (empty text), at most a day. */
    private static double seconds(Fields f, String field, String raw) {
        if (f.text(field, raw).isEmpty()) {
            return 0;
        }
        double seconds = f.number(field, raw);
        if (!(seconds >= 0) || seconds > 86_400) {
            throw f.error(field, "must be a number of seconds from 0 to 86400, got " + raw.trim());
        }
        return seconds;
    }

    public String getRate() {
        return rate;
    }

    public void setRate(String rate) {
        this.rate = rate;
    }

    public String getDropAfter() {
        return dropAfter;
    }

    public void setDropAfter(String dropAfter) {
        this.dropAfter = dropAfter;
    }

    public String getWarmUp() {
        return warmUp;
    }

    public void setWarmUp(String warmUp) {
        this.warmUp = warmUp;
    }

    public String getRampUp() {
        return rampUp;
    }

    public void setRampUp(String rampUp) {
        this.rampUp = rampUp;
    }
}
