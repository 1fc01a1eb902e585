package org.dsload.http;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.dsload.core.Backoff;
import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.core.inflight.CallbackTransport;

/**
 * HTTP requests in flight over a shared {@link AsyncHttp}: each request is handed to the client
 * with a callback, which judges the answer on the client's I/O thread ({@link Answers}) and wakes
 * the window's thread. A request given up (its timeout, the thread's end) is cancelled in the
 * client, which closes its connection. After connections could not be made the thread sends
 * nothing until a {@link Backoff} pause has passed, so a server that is down is not hammered at
 * machine speed; each attempt still fails its request.
 */
public final class HttpTransport extends CallbackTransport<HttpPlace> {
    private final AsyncHttp http;
    private final Answers answers;
    private final long timeoutNanos;
    private final Backoff backoff = new Backoff();
    /** Connection failures and answers seen by the I/O threads, read by the window's thread. */
    private final AtomicInteger connectFailures = new AtomicInteger();
    private volatile boolean answered;

    /** What a sampler makes of its requests' ends; called on the client's I/O threads. */
    public interface Answers {
        /** An HTTP answer, whatever its status. */
        Outcome answered(HttpPlace.Sent sent, HttpReply reply);

        /** No HTTP answer: no connection, a connection closed, the client's own timeout. */
        Outcome failed(HttpPlace.Sent sent, Exception error);

        /** No answer within the response timeout of {@code timeoutMillis}. */
        Outcome timedOut(HttpPlace.Sent sent, long timeoutMillis);
    }

    public HttpTransport(AsyncHttp http, Answers answers) {
        this.http = http;
        this.answers = answers;
        this.timeoutNanos = http.settings().responseTimeoutMillis() * 1_000_000L;
    }

    @Override
    public HttpPlace newRequest() {
        return new HttpPlace();
    }

    @Override
    public long readyAt(long nowNanos) {
        int failures = connectFailures.getAndSet(0);
        if (failures > 0) {
            backoff.failed(nowNanos);
        } else if (answered) {
            backoff.succeeded();
        }
        answered = false;
        return backoff.waiting(nowNanos) ? backoff.notBeforeNanos() : nowNanos;
    }

    @Override
    protected void start(HttpPlace place, Callback<HttpPlace> callback) {
        HttpPlace.Sent sent = place.sent;
        HttpClientContext context = HttpClientContext.create();
        place.future = http.execute(place.request, context, new FutureCallback<>() {
            @Override
            public void completed(SimpleHttpResponse response) {
                answered = true;
                ContentType type = response.getContentType();
                byte[] body = response.getBodyBytes() == null ? new byte[0] : response.getBodyBytes();
                HttpReply reply = new HttpReply(response.getCode(), response.getReasonPhrase(),
                        type == null ? "" : type.getMimeType(), body, AsyncHttp.sentHead(context) + sent.bodyBytes(),
                        AsyncHttp.receivedHead(context) + body.length, sent.bodyBytes());
                callback.complete(answers.answered(sent, reply), new HttpEnd(sent, reply));
            }

            @Override
            public void failed(Exception error) {
                if (isConnectFailure(error)) {
                    connectFailures.incrementAndGet();
                }
                callback.complete(answers.failed(sent, error), new HttpEnd(sent, null));
            }

            @Override
            public void cancelled() {
                // only the window cancels, and it has ended the request already
            }
        });
        place.request = null;
    }

    /** Whether no connection could be made at all (refused, unreachable, connect timeout): what the back-off is for. */
    public static boolean isConnectFailure(Throwable error) {
        Throwable root = Errors.rootCause(error);
        return error instanceof ConnectTimeoutException || root instanceof ConnectException
                || root instanceof NoRouteToHostException || root instanceof UnknownHostException;
    }

    @Override
    public void abandon(HttpPlace place) {
        if (place.future != null) {
            place.future.cancel(true);
            place.future = null;
        }
    }

    @Override
    public Outcome timedOut(HttpPlace place) {
        return answers.timedOut(place.sent, http.settings().responseTimeoutMillis());
    }

    @Override
    public long timeoutNanos() {
        return timeoutNanos;
    }

    /** The client belongs to the connection element, which closes it at test end. */
    @Override
    public void close() {
        // every outstanding request was abandoned (cancelled) by the window before this
    }
}
