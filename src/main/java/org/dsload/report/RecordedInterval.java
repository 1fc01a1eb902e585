package org.dsload.report;

import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * One label's samples on one engine over one interval (about a second), as histograms mode
 * recorded them. Times are epoch milliseconds on the runner's clock (the engine's clock less its
 * measured offset). {@code raw} is null when the engine's interval logs are not at hand and only the
 * results file's aggregate rows told the counts; {@code corrected} is null without an arrival schedule.
 */
public record RecordedInterval(String engine, String label, long start, long end, Counts counts, List<Code> codes,
        Histogram raw, Histogram corrected) {

    /** The counts of the interval (times in epoch ms, intended starts in epoch µs). */
    public record Counts(long samples, long requests, long failures, long bytesSent, long bytesReceived,
            long elapsedMillis, long firstStart, long lastStart, long lastEnd, long scheduled, long late, long dropped,
            long firstIntendedMicros, long lastIntendedMicros, long firstScheduled, long lastScheduled,
            Map<Long, Long> arrivalsPerSecond) {
    }

    /** Requests with one response code (and, for failures, one message). */
    /**
     * @param requests     the requests with this code (and message), each counted as its sample does
     * @param wireRequests of them, the requests as sent: a failed KairosDB batch of N points is one
     */
    public record Code(String code, boolean success, long requests, String message, long wireRequests) {
        /** A code whose requests were each sent as one. */
        public Code(String code, boolean success, long requests, String message) {
            this(code, success, requests, message, requests);
        }
    }

    public boolean hasLatencies() {
        return raw != null;
    }
}
