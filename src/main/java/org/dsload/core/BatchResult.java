package org.dsload.core;

import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.format.BatchTiming;

/**
 * One results row for several requests of one outcome, each timed on its own: what a sampler that
 * keeps requests in flight returns for the replies that arrived together. The row counts them all
 * (SampleCount, ErrorCount), its elapsed time is the sum of theirs (JMeter's convention for a row
 * that stands for several samples: its listeners divide by the count), and every request's own
 * send time, latency and intended-start delay goes into the {@code dsload_timing} value
 * ({@link BatchTiming}), from which the summary counts each request as if it had a row.
 */
public final class BatchResult {
    private BatchResult() {
    }

    /**
     * What a row's sampler data adds to its first request's text: nothing for a row of one, else
     * {@code separator} and how many more it holds ("(and 3 more requests in this row)").
     *
     * @param noun what the row holds: "requests", "operations"
     */
    public static String andMore(List<Completion> row, String separator, String noun) {
        return row.size() > 1 ? separator + "(and " + (row.size() - 1) + " more " + noun + " in this row)" : "";
    }

    /**
     * Builds the row and sets this thread's {@code dsload_timing} variable; call on the sampler's thread.
     *
     * @param completions at least one, all of one kind ({@link Outcome#sameKind}); the first one's
     *                    message is the row's
     */
    public static RequestsResult of(String label, List<Completion> completions) {
        return of(label, completions, JMeterContextService.getContext().getVariables());
    }

    /**
     * As {@link #of(String, List)}, with the thread's variables given: for rows made after the
     * thread's context was cleared (requests still outstanding when a thread ends).
     */
    public static RequestsResult of(String label, List<Completion> completions, JMeterVariables variables) {
        if (completions.isEmpty()) {
            throw new IllegalArgumentException("a batch row needs at least one request");
        }
        Outcome first = completions.get(0).outcome();
        long rowStartNanos = Long.MAX_VALUE;
        for (Completion c : completions) {
            if (!c.outcome().sameKind(first)) {
                throw new IllegalArgumentException("a batch row holds requests of one outcome, got "
                        + first.code() + " and " + c.outcome().code());
            }
            rowStartNanos = Math.min(rowStartNanos, c.sendNanos());
        }
        long rowStartMillis = Clock.epochMillis(rowStartNanos);
        // in histograms mode each request goes to the interval logs and the row to no listener
        boolean rows = !SampleRecording.histograms();
        List<BatchTiming.Entry> entries = rows ? new ArrayList<>(completions.size()) : List.of();
        long elapsedMicros = 0;
        long sent = 0;
        long received = 0;
        int count = 0;
        for (Completion c : completions) {
            if (rows) {
                long offset = Clock.epochMicros(c.sendNanos()) - rowStartMillis * 1000;
                entries.add(new BatchTiming.Entry(offset, c.elapsedMicros(), c.delayMicros(), c.dropped(), c.count()));
            }
            elapsedMicros += c.elapsedMicros();
            sent += c.outcome().sentBytes();
            received += c.outcome().receivedBytes();
            count += c.count();
            if (c.scheduled()) {
                IntendedStart.record(c.delayMicros());
            }
        }
        RequestsResult result = Results.fill(new RequestsResult(), label);
        result.requests(completions);
        result.setStampAndTime(rowStartMillis, elapsedMicros / 1000);
        result.setLatency(elapsedMicros / 1000);
        result.setSampleCount(count);
        result.setErrorCount(first.success() ? 0 : count);
        Results.bytes(result, sent, received);
        if (first.success()) {
            Results.succeed(result, first.code(), first.message());
        } else {
            Results.fail(result, first.code(), first.message());
        }
        if (rows && variables != null) {
            variables.put(SampleTiming.VARIABLE, BatchTiming.format(rowStartMillis, entries));
        }
        if (!rows) {
            for (Completion c : completions) {
                SampleRecording.request(label, Clock.epochMillis(c.sendNanos()), c.elapsedMicros(), c.delayMicros(),
                        c.dropped(), c.count(), c.outcome().success(), c.outcome().code(), c.outcome().message(),
                        c.outcome().sentBytes(), c.outcome().receivedBytes());
            }
            SampleRecording.ignore(result);
        }
        return result;
    }
}
