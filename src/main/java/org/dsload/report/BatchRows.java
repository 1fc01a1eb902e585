package org.dsload.report;

import java.util.ArrayList;
import java.util.List;

import org.dsload.core.format.BatchTiming;

/**
 * Turns a row that stands for several requests timed on their own ({@link BatchTiming}) into one
 * sample per request, so that every request's latency, start and intended start count in the
 * summary as if it had a row of its own. A batch holds requests of one outcome (the sampler keeps
 * them apart), so each request takes the row's success, code and message; the row's bytes are
 * shared out by the requests' counts.
 */
public final class BatchRows {
    private BatchRows() {
    }

    public static List<JtlSample> expand(JtlSample row, long rowStartMillis, List<BatchTiming.Entry> entries) {
        long totalCount = 0;
        for (BatchTiming.Entry e : entries) {
            totalCount += e.count();
        }
        List<JtlSample> samples = new ArrayList<>(entries.size());
        long bytesLeft = row.bytes();
        long sentLeft = row.sentBytes();
        long countLeft = totalCount;
        for (BatchTiming.Entry e : entries) {
            long bytes = share(bytesLeft, e.count(), countLeft);
            long sent = share(sentLeft, e.count(), countLeft);
            bytesLeft -= bytes;
            sentLeft -= sent;
            countLeft -= e.count();
            long startMicros = rowStartMillis * 1000 + e.offsetMicros();
            long start = Math.floorDiv(startMicros, 1000);
            long end = Math.floorDiv(startMicros + e.elapsedMicros(), 1000);
            samples.add(new JtlSample(start, end - start, e.elapsedMicros(), row.label(), row.responseCode(),
                    row.responseMessage(), row.success(), bytes, sent, end - start, 0, e.count(), row.hostname(),
                    row.threadName(), row.failureMessage(), true, e.delayMicros(), e.dropped(), 1));
        }
        return samples;
    }

    /** This request's part of what is left, in proportion to its count; the last one takes the rest. */
    private static long share(long left, int count, long countLeft) {
        return count == countLeft ? left : left * count / countLeft;
    }
}
