package org.dsload.arrivals;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.samplers.Sampler;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;
import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.IntendedStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload Open Model Guard, for JMeter's Open Model Thread Group, which starts one thread per
 * arrival and has no limit on how many run at once: a stalled server makes it start threads
 * until memory runs out. The guard admits at most {@code maxConcurrent} arrivals of its group at
 * a time; an arrival beyond that is dropped (its thread ends before sampling) and counted, so the
 * generator stays bounded and the summary shows what the server did not get. Each admitted
 * arrival gets its intended start from the group's schedule (see {@link OpenModelTimes}).
 *
 * <p>The guard does not delay anything: the thread group's schedule paces the arrivals.
 */
// Listed under Timers only: it is a post-processor too, to stamp samples of JMeter's own samplers.
@TestElementMetadata(labelResource = "displayName", actionGroups = MenuFactory.TIMERS)
public class OpenModelGuard extends ArrivalElement implements ThreadListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(OpenModelGuard.class);

    private static final String THREAD_LOGGER = "org.apache.jmeter.threads.JMeterThread";
    private static Level savedThreadLogLevel;

    private String maxConcurrent = "200";

    /** Every thread of the group runs its own clone of the guard: this is the thread's own arrival. */
    private transient Group group;
    private transient boolean decided;
    private transient boolean admitted;

    /** What the threads of one group share. */
    private static final class Group {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicLong droppedSinceLastStamp = new AtomicLong();
        final AtomicBoolean warned = new AtomicBoolean();
        final OpenModelTimes times;
        final long testStart;

        Group(OpenModelTimes times, long testStart) {
            this.times = times;
            this.testStart = testStart;
        }
    }

    @Override
    public long delay() {
        if (decided) {
            // a later sampler of the same arrival: one request, with no intended start of its own
            offerOnce(getThreadContext().getCurrentSampler(), Completion.UNSCHEDULED, 0);
            return 0;
        }
        decided = true;
        JMeterContext context = getThreadContext();
        int limit;
        try {
            limit = new Fields(OpenModelGuard.class, getName()).integer("maxConcurrent", maxConcurrent, 1,
                    Integer.MAX_VALUE);
            group = group(context.getThreadGroup());
        } catch (ConfigException e) {
            throw refuse(e);
        }
        if (group.inFlight.incrementAndGet() > limit) {
            group.inFlight.decrementAndGet();
            group.droppedSinceLastStamp.incrementAndGet();
            GeneratorMetrics.arrivalsDropped(1);
            context.getThread().stop();
            return 0;
        }
        admitted = true;
        double seconds = group.times.secondsOf(context.getThreadNum());
        if (Double.isNaN(seconds)) {
            warnOnce(group, context.getThreadGroup());
            offerOnce(context.getCurrentSampler(), Completion.UNSCHEDULED, 0);
            return 0;
        }
        long intendedMillis = group.testStart + Math.round(seconds * 1000);
        long intendedNanos = IntendedStart.nanosOfEpochMillis(intendedMillis);
        long dropped = group.droppedSinceLastStamp.getAndSet(0);
        if (!offerOnce(context.getCurrentSampler(), intendedNanos, dropped)) {
            IntendedStart.set(new IntendedStart.Stamp(context.getCurrentSampler(), intendedNanos, dropped));
        }
        return 0;
    }

    /**
     * A self-paced dsload sampler gets this thread's arrival as a source of one: it sends one
     * request at the intended start, to the microsecond, whatever its in-flight setting.
     *
     * @return false when the sampler is not self-paced (it gets a stamp instead)
     */
    private static boolean offerOnce(Sampler sampler, long intendedNanos, long dropped) {
        if (!(sampler instanceof IntendedStart.SelfPaced)) {
            return false;
        }
        IntendedStart.offer(sampler, ArrivalSource.once(new ArrivalSource.Arrival(intendedNanos, dropped)));
        return true;
    }

    private Group group(AbstractThreadGroup threadGroup) {
        if (!(threadGroup instanceof OpenModelThreadGroup open)) {
            throw new Fields(OpenModelGuard.class, getName()).error("works only inside an Open Model Thread Group, "
                    + "not in '" + threadGroup.getName() + "'; for a classic thread group use dsload Constant "
                    + "Arrival Rate", (Throwable) null);
        }
        return ArrivalState.of(threadGroup, getName(), () -> {
            try {
                return new Group(OpenModelTimes.of(open.getScheduleString(), open.getRandomSeed()),
                        OpenModelQuirks.scheduleOrigin(open));
            } catch (IllegalArgumentException e) {
                throw new Fields(OpenModelGuard.class, getName()).error("Open Model Thread Group '" + open.getName()
                        + "': " + e.getMessage(), e);
            }
        });
    }

    private void warnOnce(Group g, AbstractThreadGroup threadGroup) {
        if (g.warned.compareAndSet(false, true)) {
            String message = "dsload: " + new Fields(OpenModelGuard.class, getName()).element()
                    + ": arrivals of '" + threadGroup.getName() + "' have no intended start (no corrected latency)"
                    + (g.times.reproducible() ? ": the thread number is past its schedule"
                    : ": its schedule has random_arrivals and no random seed; give the thread group a random seed "
                    + "(any number but 0) so that the arrival times can be computed again");
            log.warn(message);
            System.err.println(message); // NOSONAR the console is where a headless user looks
        }
    }

    @Override
    public void testStarted() {
        super.testStarted();
        quietThreadLog();
        OpenModelQuirks.shortenStarterIdleTime();
    }

    @Override
    public void testStarted(String host) {
        super.testStarted(host);
        quietThreadLog();
        OpenModelQuirks.shortenStarterIdleTime();
    }

    @Override
    public void testEnded() {
        super.testEnded();
        restoreThreadLog();
    }

    /**
     * JMeter logs three INFO lines for every thread it starts and ends, and this thread group
     * starts one thread per arrival: thousands of lines per second that cost the generator CPU.
     */
    private static synchronized void quietThreadLog() {
        org.apache.logging.log4j.Logger threads = LogManager.getLogger(THREAD_LOGGER);
        if (savedThreadLogLevel == null && threads.isInfoEnabled()) {
            savedThreadLogLevel = threads.getLevel();
            Configurator.setLevel(THREAD_LOGGER, Level.WARN);
            log.info("dsload: {} logs at WARN during this test (one thread per arrival would log 3 lines each)",
                    THREAD_LOGGER);
        }
    }

    private static synchronized void restoreThreadLog() {
        if (savedThreadLogLevel != null) {
            Configurator.setLevel(THREAD_LOGGER, savedThreadLogLevel);
            savedThreadLogLevel = null;
        }
    }

    @Override
    public void threadStarted() {
        // admission happens at the first sample, when the thread's context is complete
    }

    @Override
    public void threadFinished() {
        if (admitted) {
            group.inFlight.decrementAndGet();
            admitted = false;
        }
    }

    public String getMaxConcurrent() {
        return maxConcurrent;
    }

    public void setMaxConcurrent(String maxConcurrent) {
        this.maxConcurrent = maxConcurrent;
    }
}
