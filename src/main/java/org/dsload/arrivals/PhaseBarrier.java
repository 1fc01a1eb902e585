package org.dsload.arrivals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.timers.Timer;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.TestStop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload Phase Barrier: holds each thread of its group before the sampler in its scope until every
 * thread of the group still running has come to it, so that a phase starts with all clients
 * together. Unlike JMeter's Synchronizing Timer it counts a thread that has ended as arrived
 * (a stopped test, a thread that met an error, never leave the others waiting for it), lets every
 * waiting thread go once the test is stopping, and waits at most its timeout.
 */
@TestElementMetadata(labelResource = "displayName", actionGroups = MenuFactory.TIMERS)
public class PhaseBarrier extends AbstractTestElement implements Timer, TestBean, ThreadListener, TestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(PhaseBarrier.class);
    /** How often a waiting thread looks whether the test is stopping. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private String timeoutSeconds = "300";

    /** Shared by the clones every thread gets of this element (JMeter clones the tree per thread). */
    private transient Barrier barrier = new Barrier();
    /** The round this thread (this clone) last arrived in, so that it never counts twice in one round. */
    private transient long arrivedIn = -1;
    private transient boolean counted;

    /** The threads of one group at one barrier, round after round. */
    static final class Barrier {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition advanced = lock.newCondition();
        private final AtomicBoolean timeoutLogged = new AtomicBoolean();
        private int parties = -1;
        private int arrived;
        private long round;

        /** Counts the group's threads once, when its first thread starts. */
        void setUp(int threads) {
            lock.lock();
            try {
                if (parties < 0) {
                    parties = threads;
                }
            } finally {
                lock.unlock();
            }
        }

        void reset() {
            lock.lock();
            try {
                parties = -1;
                arrived = 0;
                round++;
                timeoutLogged.set(false);
                advanced.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Counts the caller in the current round, unless it already came in this round (it waited
         * past its timeout and came again before the others).
         *
         * @param last the round the caller last arrived in
         * @return the round the caller is in
         */
        long arrive(long last) {
            lock.lock();
            try {
                if (last == round) {
                    return round;
                }
                long mine = round;
                arrived++;
                advanceIfComplete();
                return mine;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Waits until the round {@code mine} is over, the test is stopping, or the deadline passes.
         *
         * @return false when the deadline passed first
         */
        boolean await(long mine, long deadlineNanos) throws InterruptedException {
            lock.lock();
            try {
                while (round == mine) {
                    if (TestStop.stopping()) {
                        return true;
                    }
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    advanced.awaitNanos(Math.min(left, SLICE_NANOS));
                }
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** A thread of the group ended: the others no longer wait for it. */
        void leave(long last) {
            lock.lock();
            try {
                if (parties < 0) {
                    return;
                }
                parties--;
                if (last == round) {
                    arrived--;
                }
                advanceIfComplete();
            } finally {
                lock.unlock();
            }
        }

        private void advanceIfComplete() {
            if (parties >= 0 && arrived >= parties) {
                arrived = 0;
                round++;
                advanced.signalAll();
            }
        }
    }

    @Override
    public long delay() {
        if (!counted) {
            return 0; // not run by a thread of a group
        }
        long timeoutNanos;
        try {
            long seconds = new Fields(PhaseBarrier.class, getName()).integer("timeoutSeconds", timeoutSeconds, 0,
                    Integer.MAX_VALUE);
            timeoutNanos = seconds == 0 ? Long.MAX_VALUE / 2 : TimeUnit.SECONDS.toNanos(seconds);
        } catch (ConfigException e) {
            log.warn("dsload: {}; waiting at most 300 s", e.getMessage());
            timeoutNanos = TimeUnit.SECONDS.toNanos(300);
        }
        long start = System.nanoTime();
        arrivedIn = barrier.arrive(arrivedIn);
        try {
            if (!barrier.await(arrivedIn, start + timeoutNanos) && barrier.timeoutLogged.compareAndSet(false, true)) {
                log.warn("dsload: {}: not every thread of the group came within {} s; the waiting ones go on",
                        getName(), timeoutSeconds);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    @Override
    public void threadStarted() {
        AbstractThreadGroup group = getThreadContext().getThreadGroup();
        barrier.setUp(group == null ? 1 : group.getNumThreads());
        counted = true;
    }

    @Override
    public void threadFinished() {
        if (counted) {
            counted = false;
            barrier.leave(arrivedIn);
        }
    }

    /** A plan sent to a jmeter-server arrives serialized: its barrier is made anew there. */
    private Object readResolve() {
        barrier = new Barrier();
        arrivedIn = -1;
        return this;
    }

    @Override
    public Object clone() {
        PhaseBarrier copy = (PhaseBarrier) super.clone();
        copy.barrier = barrier;
        return copy;
    }

    @Override
    public void testStarted() {
        barrier.reset();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        barrier.reset();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    public String getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public void setTimeoutSeconds(String timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
    }
}
