package org.dsload.ycsb;

import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Record numbers for inserts during a run, shared by all threads: {@link #next()} hands out
 * numbers, {@link #acknowledge} marks one written (or given up), and {@link #lastValue()} is the
 * highest number below which every record is acknowledged, so reads never ask for a record whose
 * insert is still in flight.
 */
public final class AcknowledgedCounter {
    private final AtomicLong next;
    private final ConcurrentSkipListSet<Long> acknowledged = new ConcurrentSkipListSet<>();
    private volatile long limit;

    public AcknowledgedCounter(long start) {
        this.next = new AtomicLong(start);
        this.limit = start - 1;
    }

    public long next() {
        return next.getAndIncrement();
    }

    public void acknowledge(long value) {
        acknowledged.add(value);
        synchronized (this) {
            long l = limit;
            while (acknowledged.remove(l + 1)) {
                l++;
            }
            limit = l;
        }
    }

    public long lastValue() {
        return limit;
    }
}
