package org.dsload.recording;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.AtomicHistogram;
import org.dsload.core.format.TimingValue;
import org.dsload.report.HdrLatency;

/**
 * What one label's samples came to in one interval: latency histograms (raw, and from the intended
 * start) and every count the summary needs. Sampler threads add to it at once, without a lock and
 * with as few writes to shared memory as they can (striped adders, and the first and last times
 * written only when they move); the flusher reads it only after {@link LabelRecording#swap} has
 * taken it out of their way. Samples, and the sum of their times, are the raw histogram's.
 */
final class IntervalTally {
    /** Latencies above this (an hour, in µs) are recorded as this. */
    static final long HIGHEST_MICROS = 3_600_000_000L;

    /** Requests with one response code: those that succeeded, and those that failed by message. */
    static final class Code {
        final LongAdder succeeded = new LongAdder();
        final Map<String, LongAdder> failed = new ConcurrentHashMap<>();
        /** The failed requests by message as sent: a failed batch of points counts one. */
        final Map<String, LongAdder> failedWire = new ConcurrentHashMap<>();
    }

    final AtomicHistogram raw = new AtomicHistogram(HIGHEST_MICROS, HdrLatency.DIGITS);
    final AtomicHistogram corrected = new AtomicHistogram(HIGHEST_MICROS, HdrLatency.DIGITS);
    final LongAdder requests = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder scheduled = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastStart = new AtomicLong(Long.MIN_VALUE);
    final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
    final AtomicLong firstIntended = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastIntended = new AtomicLong(Long.MIN_VALUE);
    final AtomicLong firstScheduled = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong lastScheduled = new AtomicLong(Long.MIN_VALUE);
    final Map<String, Code> codes = new ConcurrentHashMap<>();
    /** Arrivals (sent and dropped) by the second of their intended start. */
    final Map<Long, LongAdder> arrivals = new ConcurrentHashMap<>();

    void add(RecordedSample s, String messageKey) {
        raw.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, s.elapsedMicros())));
        requests.add(s.requests());
        Code code = codes.get(s.code());
        if (code == null) {
            code = codes.computeIfAbsent(s.code(), k -> new Code());
        }
        if (s.success()) {
            code.succeeded.add(s.requests());
        } else {
            failures.add(s.requests());
            code.failed.computeIfAbsent(messageKey, k -> new LongAdder()).add(s.requests());
            code.failedWire.computeIfAbsent(messageKey, k -> new LongAdder()).add(s.wireRequests());
        }
        bytesSent.add(s.sentBytes());
        bytesReceived.add(s.receivedBytes());
        min(firstStart, s.startMillis());
        max(lastStart, s.startMillis());
        max(lastEnd, s.endMillis());
        if (s.dropped() > 0) {
            dropped.add(s.dropped());
        }
        if (s.scheduled()) {
            corrected.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, s.delayMicros() + s.elapsedMicros())));
            scheduled.increment();
            if (s.delayMicros() > TimingValue.DEFAULT_LATE_MICROS) {
                late.increment();
            }
            long intended = s.intendedStartMicros();
            arrivals.computeIfAbsent(Math.floorDiv(intended, 1_000_000), k -> new LongAdder()).add(1 + s.dropped());
            min(firstIntended, intended);
            max(lastIntended, intended);
            min(firstScheduled, s.startMillis());
            max(lastScheduled, s.startMillis());
        }
    }

    /** Raises {@code a} to {@code v}, writing only when it moves. */
    private static void max(AtomicLong a, long v) {
        long current;
        while (v > (current = a.get()) && !a.compareAndSet(current, v)) {
            // another thread moved it: look again
        }
    }

    private static void min(AtomicLong a, long v) {
        long current;
        while (v < (current = a.get()) && !a.compareAndSet(current, v)) {
            // as above
        }
    }

    long samples() {
        return raw.getTotalCount();
    }

    /** The sum of the samples' times in whole ms (from the histogram: within its precision). */
    long elapsedMillis() {
        return Math.round(raw.getMean() * raw.getTotalCount() / 1000);
    }

    /** Empties it for its next interval; only while no sampler thread can reach it. */
    void reset() {
        raw.reset();
        corrected.reset();
        for (LongAdder a : new LongAdder[] {requests, failures, bytesSent, bytesReceived, scheduled, late, dropped}) {
            a.reset();
        }
        firstStart.set(Long.MAX_VALUE);
        lastStart.set(Long.MIN_VALUE);
        lastEnd.set(Long.MIN_VALUE);
        firstIntended.set(Long.MAX_VALUE);
        lastIntended.set(Long.MIN_VALUE);
        firstScheduled.set(Long.MAX_VALUE);
        lastScheduled.set(Long.MIN_VALUE);
        codes.clear();
        arrivals.clear();
    }
}
