package org.dsload.core;

import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes a thread blocked in {@link Selector#select} at an instant less than a millisecond away,
 * which the selector cannot time: its waits are whole milliseconds. Without it, a thread that polls
 * its own connections and must send at such an instant spins on {@code selectNow} until then (a
 * system call per turn, its whole core at a few thousand arrivals a second), taking the core from a
 * server that shares the machine; a thread that parked instead would leave the replies that come
 * meanwhile unread, and their times late.
 *
 * <p>One daemon thread for the whole JVM parks until the earliest instant asked for and wakes that
 * selector ({@link Selector#wakeup}); it wakes as late as a parked thread does (the timer slack),
 * so the caller spins the last {@link PreciseWait} margin itself. An alarm that fires after its
 * selector has returned makes the next select return at once, which the caller takes as a wait
 * ended early.
 */
public final class SelectorAlarm {
    private static final Object LOCK = new Object();
    /** Armed alarms, earliest first. */
    private static final PriorityQueue<SelectorAlarm> ARMED = new PriorityQueue<>(
            (a, b) -> Long.compare(a.atNanos - b.atNanos, 0));
    private static Thread ringer;
    /** The instant the ringer parks until; Long.MAX_VALUE while it waits for an alarm. Guarded by LOCK. */
    private static long ringerWakes = Long.MAX_VALUE;
    private static boolean ringerParkedForever = true;

    private final Selector selector;
    /** Guarded by LOCK. */
    private long atNanos;
    private boolean armed;

    public SelectorAlarm(Selector selector) {
        this.selector = selector;
    }

    /** Wakes the selector at {@code instantNanos} ({@link System#nanoTime()}), in place of any instant set before. */
    public void set(long instantNanos) {
        synchronized (LOCK) {
            if (armed) {
                ARMED.remove(this);
            }
            atNanos = instantNanos;
            armed = true;
            ARMED.add(this);
            if (ringer == null) {
                ringer = new Thread(SelectorAlarm::ring, "dsload-selector-alarm");
                ringer.setDaemon(true);
                ringer.start();
            } else if (ringerParkedForever || instantNanos - ringerWakes < 0) {
                ringerWakes = instantNanos;
                ringerParkedForever = false;
                LockSupport.unpark(ringer);
            }
        }
    }

    /** No wake-up, if it has not come yet. */
    public void cancel() {
        synchronized (LOCK) {
            if (armed) {
                ARMED.remove(this);
                armed = false;
            }
        }
    }

    private static void ring() {
        while (true) {
            long until;
            boolean forever;
            synchronized (LOCK) {
                long now = System.nanoTime();
                SelectorAlarm first = ARMED.peek();
                while (first != null && first.atNanos - now <= 0) {
                    ARMED.poll();
                    first.armed = false;
                    first.selector.wakeup();
                    first = ARMED.peek();
                }
                forever = first == null;
                until = forever ? 0 : first.atNanos;
                ringerWakes = forever ? Long.MAX_VALUE : until;
                ringerParkedForever = forever;
            }
            if (forever) {
                LockSupport.park(LOCK);
            } else {
                LockSupport.parkNanos(LOCK, until - System.nanoTime());
            }
        }
    }
}
