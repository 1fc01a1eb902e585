package org.dsload.http;

import java.util.ArrayList;
import java.util.List;

import org.dsload.core.Completion;

/**
 * The detail a request of an {@link HttpTransport} ends with: what was sent, and the answer, or
 * null when none came (no connection, a timeout, a cancelled request).
 */
public record HttpEnd(HttpPlace.Sent sent, HttpReply reply) {

    /** The payloads of the successful requests of a row that are of this type. */
    public static <T> List<T> succeeded(List<Completion> row, Class<T> type) {
        List<T> payloads = new ArrayList<>(row.size());
        for (Completion done : row) {
            if (done.outcome().success() && done.detail() instanceof HttpEnd end && type.isInstance(end.sent().payload())) {
                payloads.add(type.cast(end.sent().payload()));
            }
        }
        return payloads;
    }

    /**
     * The payloads of the requests of a row that are of this type, were sent and got no answer, and
     * ended with an outcome {@code how} accepts (a timeout: the server may have applied them).
     */
    public static <T> List<T> unanswered(List<Completion> row, Class<T> type, java.util.function.Predicate<String> how) {
        List<T> payloads = new ArrayList<>();
        for (Completion done : row) {
            if (!done.outcome().success() && done.detail() instanceof HttpEnd end && end.reply() == null
                    && type.isInstance(end.sent().payload()) && how.test(done.outcome().code())) {
                payloads.add(type.cast(end.sent().payload()));
            }
        }
        return payloads;
    }
}
