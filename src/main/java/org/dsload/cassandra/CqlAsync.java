package org.dsload.cassandra;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One statement sent through the driver's asynchronous API. Its reply is handed over once, on a
 * driver thread (or on the caller's, when the driver refuses the request at once), with the error
 * kept in it: never as an exception. What requests in flight are built from.
 */
final class CqlAsync {
    private CqlAsync() {
    }

    /**
     * Sends the statement ({@code reply} made by {@link CqlReply#sending} for it); {@code done} gets the reply once it is in: its first page, or every
     * page when {@code allPages} is on (each further page asked for when the one before is read).
     *
     * @return the driver's future of the first page: cancelling it gives the request up
     */
    static CompletableFuture<AsyncResultSet> send(CassandraClient client, CqlReply reply, Statement<?> statement,
            CqlReply.RowSink sink, boolean allPages, Consumer<CqlReply> done) {
        ProtocolVersion version = client.protocolVersion();
        CompletableFuture<AsyncResultSet> first;
        try {
            first = client.session().executeAsync(statement).toCompletableFuture();
        } catch (RuntimeException e) {
            reply.fail(e);
            reply.ended();
            done.accept(reply);
            return CompletableFuture.failedFuture(e);
        }
        first.whenComplete((rs, error) -> {
            if (error != null) {
                finish(client, reply, error, done);
            } else {
                reply.firstPage(rs, sink);
                if (allPages && rs.hasMorePages()) {
                    next(reply, rs, new Paging(client, statement, version, sink, true, done));
                } else {
                    finish(client, reply, null, done); // the usual reply: one page, nothing more to hold
                }
            }
        });
        return first;
    }

    /** What reading the further pages of one request needs. */
    private record Paging(CassandraClient client, Statement<?> statement, ProtocolVersion version,
            CqlReply.RowSink sink, boolean allPages, Consumer<CqlReply> done) {
    }

    /** Asks for the page after {@code rs} when there is one and it is wanted, else ends the reply. */
    private static void next(CqlReply reply, AsyncResultSet rs, Paging paging) {
        if (!paging.allPages() || !rs.hasMorePages()) {
            finish(paging.client(), reply, null, paging.done());
            return;
        }
        reply.sent += CqlFrames.request(paging.statement(), paging.version(), rs.getExecutionInfo().getPagingState());
        try {
            rs.fetchNextPage().whenComplete((page, error) -> {
                if (error != null) {
                    finish(paging.client(), reply, error, paging.done());
                } else {
                    reply.nextPage(page, paging.sink());
                    next(reply, page, paging);
                }
            });
        } catch (RuntimeException e) {
            finish(paging.client(), reply, e, paging.done());
        }
    }

    private static void finish(CassandraClient client, CqlReply reply, Throwable error, Consumer<CqlReply> done) {
        if (error != null) {
            reply.fail(error);
        }
        reply.ended();
        client.replied(reply.pages);
        done.accept(reply);
    }

    /** The first page only, as a future that completes with the reply (never exceptionally). */
    static CompletableFuture<CqlReply> send(CassandraClient client, Statement<?> statement, CqlReply.RowSink sink) {
        CompletableFuture<CqlReply> reply = new CompletableFuture<>();
        send(client, CqlReply.sending(statement, client.protocolVersion()), statement, sink, false, reply::complete);
        return reply;
    }
}
