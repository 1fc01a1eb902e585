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
}
