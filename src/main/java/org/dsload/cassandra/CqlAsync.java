package org.dsload.cassandra;

import java.util.concurrent.CompletableFuture;

import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One statement sent through the driver's asynchronous API: the returned stage completes, on a
 * driver thread, with the reply (its first page) or the error kept in it; it never completes
 * exceptionally. What several requests in flight are built from.
 */
final class CqlAsync {
    private CqlAsync() {
    }

    static CompletableFuture<CqlReply> send(CqlClient client, Statement<?> statement, CqlReply.RowSink sink) {
        CqlReply reply = CqlReply.sending(statement, client.protocolVersion());
        CompletableFuture<CqlReply> done;
        try {
            done = client.session().executeAsync(statement).toCompletableFuture().handle((rs, error) -> {
                if (error != null) {
                    reply.fail(error);
                } else {
                    reply.firstPage(rs, sink);
                }
                reply.ended();
                return reply;
            });
        } catch (RuntimeException e) {
            reply.fail(e);
            reply.ended();
            done = CompletableFuture.completedFuture(reply);
        }
        return done;
    }
}
