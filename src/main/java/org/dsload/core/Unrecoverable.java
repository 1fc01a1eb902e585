package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;

/**
 * Stops a test at the first error that no retry can cure: a refused login, a missing permission,
 * a table or keyspace that does not exist. Running on would only repeat the same failure as fast
 * as the threads can loop (hundreds of thousands of identical samples), and the server's sentence
 * would be lost among them.
 *
 * <p>How a sampler adopts it: its store's error mapper gets a {@link Judge} (it knows the
 * driver's exception classes and the server's error codes, and judges the failed request's
 * {@link Outcome}); the sampler gets a flag field {@value #FIELD} (default true, label "Stop on
 * unrecoverable errors"), and after filling a failed row calls
 * {@code Unrecoverable.stopIf(result, outcome, Errors::unrecoverable, stopOn, getName())}.
 */
public final class Unrecoverable {
    /** The bean property every adopting sampler names its flag by. */
    public static final String FIELD = "stopOnUnrecoverable";

    private Unrecoverable() {
    }

    /** What a store's error mapper answers for a failed request. */
    @FunctionalInterface
    public interface Judge {
        /** @return whether sending the same request again, to any node, would fail the same way */
        boolean unrecoverable(Outcome failed);
    }

    /**
     * Marks a failed sample to stop the test when its outcome is unrecoverable and stopping is on;
     * the console gets {@code dsload: <element>: <code>: <message>. No retry can cure ...} once.
     *
     * @param element the sampler's name
     * @return whether the test stops
     */
    public static boolean stopIf(SampleResult result, Outcome outcome, Judge judge, boolean stopOn, String element) {
        if (!stopOn || outcome.success() || !judge.unrecoverable(outcome)) {
            return false;
        }
        TestStop.stop(result, "dsload: " + element + ": " + outcome.code() + ": " + Errors.sentence(outcome.message())
                + ". No retry can cure this error, so the test stops (set the sampler's 'Stop on unrecoverable errors' "
                + "to false to run on regardless)");
        return true;
    }

    /**
     * {@link #stopIf} for a row of requests in flight, judged by its first request (they are of
     * one kind).
     *
     * @param row the row, or null (nothing ended): passed through
     * @return the row
     */
    public static RequestsResult stopIfRow(RequestsResult row, Judge judge, boolean stopOn, String element) {
        if (row != null) {
            stopIf(row, row.requests().get(0).outcome(), judge, stopOn, element);
        }
        return row;
    }
}
