package org.dsload.core;

import org.dsload.core.format.TimingValue;

/**
 * One request, sent and answered: its times on the {@link System#nanoTime()} clock and its
 * outcome. A request sent under an arrival schedule carries its intended start, so that its
 * latency can be measured from when it should have been sent as well as from when it was.
 *
 * @param intendedNanos when the arrival schedule meant it to be sent, or {@link #UNSCHEDULED}
 * @param sendNanos     when it was sent
 * @param endNanos      when its reply (or error) arrived
 * @param dropped       scheduled arrivals skipped just before it, counted with it
 * @param count         requests it stands for (a pipeline sent as one request), at least 1
 * @param detail        what the sampler may show of it (request and reply text), or null; kept only
 *                      where someone will look (failures, a response data limit above 0)
 */
public record Completion(long intendedNanos, long sendNanos, long endNanos, long dropped, int count, Outcome outcome,
        Object detail) {
    public static final long UNSCHEDULED = Long.MIN_VALUE;

    public Completion(long intendedNanos, long sendNanos, long endNanos, long dropped, int count, Outcome outcome) {
        this(intendedNanos, sendNanos, endNanos, dropped, count, outcome, null);
    }

    public Completion {
        if (count < 1) {
            throw new IllegalArgumentException("a request stands for at least 1, got " + count);
        }
        if (endNanos < sendNanos) {
            throw new IllegalArgumentException("a request cannot end before it is sent");
        }
    }

    public boolean scheduled() {
        return intendedNanos != UNSCHEDULED;
    }

    public long elapsedMicros() {
        return (endNanos - sendNanos) / 1000;
    }

    /** How long after its intended start it was sent, or {@link TimingValue#NONE} outside a schedule. */
    public long delayMicros() {
        return scheduled() ? Math.max(0, (sendNanos - intendedNanos) / 1000) : TimingValue.NONE;
    }
}
