package org.dsload.recording;

/**
 * One timed request as histograms mode records it: what its results row would have held.
 *
 * @param delayMicros how long after its intended start it started, or -1 outside an arrival schedule
 * @param dropped     scheduled arrivals skipped just before it
 * @param requests    requests it stands for (a pipeline of N is one latency and N requests)
 * @param wireRequests of them, the requests sent: one for a KairosDB batch that counts its points
 */
record RecordedSample(String label, long startMillis, long endMillis, long elapsedMicros, long delayMicros,
        long dropped, int requests, boolean success, String code, String message,
        long sentBytes, long receivedBytes, int wireRequests) {

    /** A sample whose requests were each sent as one. */
    RecordedSample(String label, long startMillis, long endMillis, long elapsedMicros, long delayMicros,
            long dropped, int requests, boolean success, String code, String message,
            long sentBytes, long receivedBytes) {
        this(label, startMillis, endMillis, elapsedMicros, delayMicros, dropped, requests, success, code, message,
                sentBytes, receivedBytes, requests);
    }

    boolean scheduled() {
        return delayMicros >= 0;
    }

    /** The intended start in microseconds since the epoch (the start itself outside a schedule). */
    long intendedStartMicros() {
        return startMillis * 1000 - Math.max(0, delayMicros);
    }
}
