package org.dsload.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A run's requests by the second they ended in: how many succeeded, how many failed and with which
 * codes. What {@link Outages} reads to tell when a store stopped answering.
 */
public final class RequestSeconds {
    /** One second's requests. */
    public static final class Second {
        long succeeded;
        long failed;
        final Map<String, Long> failedCodes = new LinkedHashMap<>();

        public long succeeded() {
            return succeeded;
        }

        public long failed() {
            return failed;
        }

        public Map<String, Long> failedCodes() {
            return failedCodes;
        }
    }

    private final TreeMap<Long, Second> seconds = new TreeMap<>();
    private long firstMillis = Long.MAX_VALUE;
    private long lastMillis = Long.MIN_VALUE;

    void add(JtlSample s) {
        count(Math.floorDiv(s.end(), 1000), s.success(), s.sampleCount(), s.responseCode());
        span(s.start(), s.end());
    }

    void add(RecordedInterval interval) {
        long second = Math.floorDiv(interval.start(), 1000);
        for (RecordedInterval.Code code : interval.codes()) {
            count(second, code.success(), code.requests(), code.code());
        }
        if (interval.counts().requests() > 0) {
            span(interval.start(), interval.end());
        }
    }

    private void count(long second, boolean success, long requests, String code) {
        Second s = seconds.computeIfAbsent(second, k -> new Second());
        if (success) {
            s.succeeded += requests;
        } else {
            s.failed += requests;
            s.failedCodes.merge(TransportErrors.shortCode(code), requests, Long::sum);
        }
    }

    private void span(long start, long end) {
        firstMillis = Math.min(firstMillis, start);
        lastMillis = Math.max(lastMillis, end);
    }

    /** Seconds (epoch seconds) with requests that ended in them, in order. */
    public NavigableMap<Long, Second> seconds() {
        return seconds;
    }

    /** The first request's start, epoch ms; {@link Long#MAX_VALUE} without requests. */
    public long firstMillis() {
        return firstMillis;
    }

    /** The last request's end, epoch ms. */
    public long lastMillis() {
        return lastMillis;
    }

    public boolean isEmpty() {
        return seconds.isEmpty();
    }
}
