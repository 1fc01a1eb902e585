package org.dsload.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.dsload.core.inflight.LeftoverRows;

/**
 * Several blocking requests in one JMeter sample ("Requests per sample"), one after the other on
 * the sampler's thread, each timed on its own: JMeter's own work per sample (controllers, the
 * fields set again, listeners) is then paid once for many requests, and every request still
 * counts with its own latency ({@link BatchResult}). A sample ends after its requests, at the
 * first failed request, at the thread's end, when the test stops, or after {@value #MAX_MILLIS} ms,
 * so that a slow server or a stopping test never waits on a long batch. Requests of another kind
 * than the row's first (a nil reply among OKs) start a new row; the finished row goes straight to
 * the sampler's listeners ({@link LeftoverRows}), and the sample returns the last one.
 *
 * <p>One instance per sampler clone.
 */
public final class BlockingBatch {
    /** The longest a sample keeps sending: a stopping test waits at most this long for it. */
    public static final long MAX_MILLIS = 1000;
    private static final long MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_MILLIS);

    private final LeftoverRows earlierRows = new LeftoverRows();
    private volatile boolean stopping;

    /** One request: sent on the sampler's thread, its reply waited for, timed on its own. */
    @FunctionalInterface
    public interface Request {
        Completion send();
    }

    /**
     * Sends up to {@code requests} requests (at least one) and returns the row of the last kind.
     *
     * @param finish fills in what a row shows (the sampler data of its first request, say), for
     *               the rows delivered early and the one returned alike
     */
    public RequestsResult run(String label, int requests, Request request, Consumer<RequestsResult> finish) {
        stopping = false;
        earlierRows.remember();
        long start = System.nanoTime();
        long threadEnd = IntendedStart.threadEndNanos();
        List<Completion> row = new ArrayList<>(Math.min(requests, 128));
        for (int i = 0; i < requests; i++) {
            if (i > 0 && (stopping || over(start, threadEnd))) {
                break;
            }
            Completion done = request.send();
            if (!row.isEmpty() && !done.outcome().sameKind(row.get(0).outcome())) {
                RequestsResult earlier = BatchResult.of(label, row);
                finish.accept(earlier);
                earlierRows.deliver(earlier);
                row = new ArrayList<>(Math.min(requests - i, 128));
            }
            row.add(done);
            if (!done.outcome().success()) {
                break;
            }
        }
        RequestsResult result = BatchResult.of(label, row);
        finish.accept(result);
        return result;
    }

    private static boolean over(long start, long threadEnd) {
        long now = System.nanoTime();
        return now - start >= MAX_NANOS || threadEnd != Long.MAX_VALUE && now - threadEnd >= 0;
    }

    /** The test is stopping: the sample under way sends nothing more. */
    public void stop() {
        stopping = true;
    }
}
