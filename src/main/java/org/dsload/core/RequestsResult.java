package org.dsload.core;

import java.util.List;

/**
 * A sample result that stands for several requests: it keeps them, each with its own times and
 * outcome, for the recording that counts requests rather than rows, and it reports how many of
 * them failed. (JMeter's own result ignores {@link #setErrorCount} and counts a failed row as one
 * error whatever its sample count, so a failed batch of 25 would show as 1 error in 25 requests.)
 * The list stays in this JVM: a result sent to a master carries its requests in the
 * {@code dsload_timing} value instead; the error count travels with it.
 */
public class RequestsResult extends WireResult {
    private static final long serialVersionUID = 1L;

    private transient List<Completion> requests = List.of();
    /** Failed requests among those the row stands for; negative: JMeter's rule (0, or 1 if failed). */
    private int errors = -1;

    @Override
    public int getErrorCount() {
        return errors >= 0 ? errors : super.getErrorCount();
    }

    @Override
    public void setErrorCount(int count) {
        this.errors = count;
    }

    public List<Completion> requests() {
        return requests == null ? List.of() : requests;
    }

    public void requests(List<Completion> completions) {
        this.requests = List.copyOf(completions);
    }
}
