package org.dsload.report;

/**
 * One row of a JMeter CSV results file (JTL), with the columns the reports use. A pipelined or
 * batched sample stands for {@code sampleCount} requests; its time is the time of the batch.
 * {@code elapsedMicros} is the dsload sampler's own microsecond timing when the row carries it,
 * else JMeter's milliseconds times 1000 ({@code timedInMicros} tells which).
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
        boolean timedInMicros) {

    public long end() {
        return start + elapsed;
    }
}
