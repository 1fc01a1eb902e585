package org.dsload.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the summary reports for one label (or for all labels together): the figures of vegeta's
 * report, computed from every sample. Requests count what the samples stand for: a pipeline of N
 * commands in one sample is N requests and one latency.
 */
public final class LabelStats {
    /** Distinct error messages kept; more are counted under one line. */
    static final int MAX_ERROR_MESSAGES = 100;
    static final String OTHER_ERRORS = "(other error messages)";

    private final String label;
    /** Latencies in microseconds. */
    private final ExactHistogram latencies = new ExactHistogram();
    private final Map<String, Long> statusCodes = new LinkedHashMap<>();
    private final Map<String, Long> errors = new LinkedHashMap<>();
    private long samples;
    private long microTimed;
    private long requests;
    private long successes;
    private long bytesIn;
    private long bytesOut;
    private long firstStart = Long.MAX_VALUE;
    private long lastStart = Long.MIN_VALUE;
    private long lastEnd = Long.MIN_VALUE;

    public LabelStats(String label) {
        this.label = label;
    }

    public void add(JtlSample s) {
        samples++;
        requests += s.sampleCount();
        if (s.success()) {
            successes += s.sampleCount();
        } else {
            String message = s.responseMessage().isEmpty() ? s.failureMessage() : s.responseMessage();
            String key = errors.size() < MAX_ERROR_MESSAGES || errors.containsKey(message) ? message : OTHER_ERRORS;
            errors.merge(key, (long) s.sampleCount(), Long::sum);
        }
        statusCodes.merge(s.responseCode().isEmpty() ? "(none)" : s.responseCode(), (long) s.sampleCount(), Long::sum);
        latencies.record(s.elapsedMicros());
        if (s.timedInMicros()) {
            microTimed++;
        }
        bytesIn += s.bytes();
        bytesOut += s.sentBytes();
        firstStart = Math.min(firstStart, s.start());
        lastStart = Math.max(lastStart, s.start());
        lastEnd = Math.max(lastEnd, s.end());
    }

    public void merge(LabelStats other) {
        samples += other.samples;
        microTimed += other.microTimed;
        requests += other.requests;
        successes += other.successes;
        bytesIn += other.bytesIn;
        bytesOut += other.bytesOut;
        latencies.merge(other.latencies);
        other.statusCodes.forEach((k, v) -> statusCodes.merge(k, v, Long::sum));
        other.errors.forEach((k, v) -> errors.merge(
                errors.size() < MAX_ERROR_MESSAGES || errors.containsKey(k) ? k : OTHER_ERRORS, v, Long::sum));
        firstStart = Math.min(firstStart, other.firstStart);
        lastStart = Math.max(lastStart, other.lastStart);
        lastEnd = Math.max(lastEnd, other.lastEnd);
    }

    public String label() {
        return label;
    }

    public long samples() {
        return samples;
    }

    public long requests() {
        return requests;
    }

    public long successes() {
        return successes;
    }

    public double successRatio() {
        return requests == 0 ? 0 : (double) successes / requests;
    }

    /** From the first request's start to the last request's start, in ms. */
    public long attackMillis() {
        return samples == 0 ? 0 : lastStart - firstStart;
    }

    /** From the last request's start to the end of the last response, in ms. */
    public long waitMillis() {
        return samples == 0 ? 0 : lastEnd - lastStart;
    }

    public long totalMillis() {
        return attackMillis() + waitMillis();
    }

    /** Requests per second over the attack; over the whole duration if every request started at once. */
    public double rate() {
        long span = attackMillis() > 0 ? attackMillis() : totalMillis();
        return span == 0 ? 0 : requests * 1000.0 / span;
    }

    /** Successful requests per second over the whole duration. */
    public double throughput() {
        return totalMillis() == 0 ? 0 : successes * 1000.0 / totalMillis();
    }

    /** Latencies in microseconds. */
    public ExactHistogram latencies() {
        return latencies;
    }

    /** Samples whose latency was timed in microseconds by a dsload sampler. */
    public long microTimedSamples() {
        return microTimed;
    }

    public long bytesIn() {
        return bytesIn;
    }

    public long bytesOut() {
        return bytesOut;
    }

    public double meanBytesIn() {
        return requests == 0 ? 0 : (double) bytesIn / requests;
    }

    public double meanBytesOut() {
        return requests == 0 ? 0 : (double) bytesOut / requests;
    }

    public Map<String, Long> statusCodes() {
        return statusCodes;
    }

    public Map<String, Long> errors() {
        return errors;
    }

    public long firstStart() {
        return firstStart;
    }

    public long lastEnd() {
        return lastEnd;
    }
}
