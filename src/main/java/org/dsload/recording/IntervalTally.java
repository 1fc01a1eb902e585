package org.dsload.recording;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.dsload.report.HdrLatency;
import org.dsload.report.LabelStats;

/**
 * What one label's samples came to in one interval: latency histograms (raw, and from the intended
 * start) and every count the summary needs. Sampler threads add to it at once, without a lock;
 * the flusher reads it only after {@link LabelRecording#swap} has taken it out of their way.
 */
final class IntervalTally {
    /** Response code, success and (for failures) message: one line of codes.csv. */
    record Code(String code, boolean success, String message) {
    }

    final ConcurrentHistogram raw = new ConcurrentHistogram(HdrLatency.DIGITS);
    final ConcurrentHistogram corrected = new ConcurrentHistogram(HdrLatency.DIGITS);
    final LongAdder samples = new LongAdder();
    final LongAdder requests = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder elapsedMillis = new LongAdder();
    final LongAdder latencyMillis = new LongAdder();
    final LongAdder scheduled = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAccumulator firstStart = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastStart = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final LongAccumulator lastEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final LongAccumulator firstIntended = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastIntended = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final LongAccumulator firstScheduled = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastScheduled = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final Map<Code, LongAdder> codes = new ConcurrentHashMap<>();
    /** Arrivals (sent and dropped) by the second of their intended start. */
    final Map<Long, LongAdder> arrivals = new ConcurrentHashMap<>();

    void add(RecordedSample s, String messageKey) {
        raw.recordValue(Math.max(0, s.elapsedMicros()));
        samples.increment();
        requests.add(s.requests());
        if (!s.success()) {
            failures.add(s.requests());
        }
        codes.computeIfAbsent(new Code(s.code(), s.success(), s.success() ? "" : messageKey), k -> new LongAdder())
                .add(s.requests());
        bytesSent.add(s.sentBytes());
        bytesReceived.add(s.receivedBytes());
        elapsedMillis.add(s.elapsedMillis());
        latencyMillis.add(s.latencyMillis());
        firstStart.accumulate(s.startMillis());
        lastStart.accumulate(s.startMillis());
        lastEnd.accumulate(s.endMillis());
        dropped.add(s.dropped());
        if (s.scheduled()) {
            corrected.recordValue(Math.max(0, s.delayMicros() + s.elapsedMicros()));
            scheduled.increment();
            if (s.delayMicros() > LabelStats.DEFAULT_LATE_MICROS) {
                late.increment();
            }
            long intended = s.intendedStartMicros();
            arrivals.computeIfAbsent(Math.floorDiv(intended, 1_000_000), k -> new LongAdder()).add(1 + s.dropped());
            firstIntended.accumulate(intended);
            lastIntended.accumulate(intended);
            firstScheduled.accumulate(s.startMillis());
            lastScheduled.accumulate(s.startMillis());
        }
    }

    /** Empties it for its next interval; only while no sampler thread can reach it. */
    void reset() {
        raw.reset();
        corrected.reset();
        for (LongAdder a : new LongAdder[] {samples, requests, failures, bytesSent, bytesReceived, elapsedMillis,
            latencyMillis, scheduled, late, dropped}) {
            a.reset();
        }
        for (LongAccumulator a : new LongAccumulator[] {firstStart, lastStart, lastEnd, firstIntended, lastIntended,
            firstScheduled, lastScheduled}) {
            a.reset();
        }
        codes.clear();
        arrivals.clear();
    }
}
