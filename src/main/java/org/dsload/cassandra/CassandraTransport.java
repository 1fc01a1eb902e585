package org.dsload.cassandra;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.dsload.core.Outcome;
import org.dsload.core.inflight.CallbackTransport;
import org.dsload.core.inflight.InFlightRequest;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * CQL statements kept in flight on the shared driver session: each sent with executeAsync, its
 * reply handed to the window by the driver's callback. The driver ends every request at its own
 * request timeout; the window's deadline is a backstop against a callback that never comes.
 * While no node can take a request (the driver fails it at once), sends wait out the transport's
 * back-off, so that a cluster that is down is not asked at machine speed.
 */
final class CassandraTransport extends CallbackTransport<CassandraTransport.Request> {
    /** A statement on its way. */
    static final class Request extends InFlightRequest {
        Statement<?> statement;
        CompletableFuture<?> driver;

        void clear() {
            statement = null;
            driver = null;
        }
    }

    /** What a row shows of its first request, kept only where someone looks (a data limit, a failure). */
    record Shown(String rows, String headers) {
    }

    private final CassandraClient client;
    private final boolean allPages;
    private final int limit;
    private final Duration timeout;
    private final long backstopNanos;

    /** @param timeout the request's own timeout, or null for the session's */
    CassandraTransport(CassandraClient client, boolean allPages, int limit, Duration timeout) {
        this.client = client;
        this.allPages = allPages;
        this.limit = limit;
        this.timeout = timeout != null ? timeout : client.requestTimeout();
        this.backstopNanos = this.timeout.multipliedBy(2).plusSeconds(5).toNanos();
    }

    @Override
    public Request newRequest() {
        return new Request();
    }

    @Override
    protected void start(Request request, Callback<Request> callback) {
        RowsText text = limit > 0 ? new RowsText(limit) : null;
        CqlReply sending = CqlReply.sending(request.statement, client.protocolVersion());
        request.sentBytes(sending.sent);
        request.driver = CqlAsync.send(client, sending, request.statement, text, allPages, reply -> {
            Outcome outcome = reply.outcome(client);
            boolean shown = text != null || !outcome.success();
            callback.complete(outcome, shown ? new Shown(text == null ? null : text.toString(),
                    CqlSampleRow.headers(reply, reply.warnings)) : null);
        });
    }

    @Override
    protected boolean unreachable(Outcome outcome) {
        return CassandraErrors.unreachable(outcome);
    }

    /** Gives the driver's request up too, so that it holds no stream id for a reply nobody reads. */
    @Override
    public void abandon(Request request) {
        if (request.driver != null) {
            request.driver.cancel(false);
        }
    }

    @Override
    public Outcome timedOut(Request request) {
        return Outcome.failed(DriverTimeoutException.class.getSimpleName(), "no reply within "
                + backstopNanos / 1_000_000 + " ms, twice the request timeout of " + timeout.toMillis()
                + " ms and 5 s: the driver did not end the request itself [" + client.target() + "]",
                request.sentBytes(), 0);
    }

    @Override
    public long timeoutNanos() {
        return backstopNanos;
    }

    @Override
    public void close() {
        // the session is the Cassandra Session element's, closed at test end
    }
}
