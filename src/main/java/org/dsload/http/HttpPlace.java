package org.dsload.http;

import java.net.URI;
import java.util.concurrent.Future;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.dsload.core.inflight.InFlightRequest;

/** One place of a window of HTTP requests in flight: the request to send next, then its exchange under way. */
public final class HttpPlace extends InFlightRequest {
    SimpleHttpRequest request;
    Sent sent;
    Future<?> future;

    /**
     * What one request was, kept with its end: the server it went to, what the sampler needs of it
     * afterwards (points written, a time range ...), and its body's size.
     */
    public record Sent(URI node, Object payload, long bodyBytes) {
    }

    /**
     * Sets the next request of this place; the sampler's preparer calls it.
     *
     * @param count what the request counts in the results (1, or the points it writes)
     */
    public void prepare(URI node, SimpleHttpRequest request, Object payload, int count) {
        this.request = request;
        byte[] body = request.getBodyBytes();
        this.sent = new Sent(node, payload, body == null ? 0 : body.length);
        count(count);
    }

    /** A request that timed out or was cancelled ends with what was sent and no answer. */
    @Override
    protected Object unanswered() {
        return sent == null ? null : new HttpEnd(sent, null);
    }
}
