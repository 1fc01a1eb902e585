package org.dsload.report;

import org.dsload.core.format.TimingValue;

/**
 * One row of a JMeter CSV results file (JTL), with the columns the reports use. A pipelined or
 * batched sample stands for {@code sampleCount} requests; its time is the time of the batch.
 * {@code elapsedMicros} is the dsload sampler's own microsecond timing when the row carries it,
 * else JMeter's milliseconds times 1000 ({@code timedInMicros} tells which).
 * {@code intendedDelayMicros} is how long after its scheduled arrival the sample started, or
 * {@link TimingValue#NONE} outside an arrival schedule; {@code droppedBefore} counts scheduled
 * arrivals the generator skipped just before this sample. {@code wireRequests} is how many
 * requests the sample sent: its {@code sampleCount}, but one for a request of a batch row that
 * counts more than one (a KairosDB batch counts its points, and is one request).
 */
public record JtlSample(
        long start,
        long elapsed,
        long elapsedMicros,
        String label,
        String responseCode,
        String responseMessage,
        boolean success,
        long bytes,
        long sentBytes,
        long latency,
        long connect,
        int sampleCount,
        String hostname,
        String threadName,
        String failureMessage,
        boolean timedInMicros,
        long intendedDelayMicros,
        long droppedBefore,
        int wireRequests) {

    /** A row whose requests are its sample count. */
    public JtlSample(long start, long elapsed, long elapsedMicros, String label, String responseCode,
            String responseMessage, boolean success, long bytes, long sentBytes, long latency, long connect,
            int sampleCount, String hostname, String threadName, String failureMessage, boolean timedInMicros,
            long intendedDelayMicros, long droppedBefore) {
        this(start, elapsed, elapsedMicros, label, responseCode, responseMessage, success, bytes, sentBytes, latency,
                connect, sampleCount, hostname, threadName, failureMessage, timedInMicros, intendedDelayMicros,
                droppedBefore, sampleCount);
    }

    /** A row outside any arrival schedule. */
    public JtlSample(long start, long elapsed, long elapsedMicros, String label, String responseCode,
            String responseMessage, boolean success, long bytes, long sentBytes, long latency, long connect,
            int sampleCount, String hostname, String threadName, String failureMessage, boolean timedInMicros) {
        this(start, elapsed, elapsedMicros, label, responseCode, responseMessage, success, bytes, sentBytes, latency,
                connect, sampleCount, hostname, threadName, failureMessage, timedInMicros, TimingValue.NONE, 0);
    }

    public long end() {
        return start + elapsed;
    }

    /** Whether the sample ran under an arrival schedule and so has an intended start. */
    public boolean scheduled() {
        return intendedDelayMicros >= 0;
    }

    /** Latency from the intended start: the wait for the start plus the sample's own time. */
    public long correctedMicros() {
        return scheduled() ? intendedDelayMicros + elapsedMicros : elapsedMicros;
    }

    /** The intended start in microseconds since the epoch (the start itself when not scheduled). */
    public long intendedStartMicros() {
        return start * 1000 - Math.max(0, intendedDelayMicros);
    }
}
