package org.dsload.cassandra;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * Several statements of one sample in flight at once on the shared session, the sample ending
 * when the last reply is in: what a thread of an asynchronous client does, and a way to drive
 * a cluster with fewer JMeter threads. Each request reads its first page only; rows of the first
 * request are shown.
 */
final class CqlConcurrent {
    private CqlConcurrent() {
    }

    /** One reply per statement, in order; none is left unfinished (a late one counts as timed out). */
    static CqlReply[] run(CassandraClient client, List<Statement<?>> statements, CqlReply.RowSink sink) {
        @SuppressWarnings("unchecked")
        CompletableFuture<CqlReply>[] done = new CompletableFuture[statements.size()];
        for (int i = 0; i < done.length; i++) {
            done[i] = CqlAsync.send(client, statements.get(i), i == 0 ? sink : null);
        }
        // The driver ends every request within its timeout; this only guards against a lost callback.
        Duration limit = client.requestTimeout().multipliedBy(2).plusSeconds(5);
        try {
            CompletableFuture.allOf(done).get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the late ones are taken as timed out below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        CqlReply[] replies = new CqlReply[done.length];
        for (int i = 0; i < done.length; i++) {
            replies[i] = done[i].getNow(null);
            if (replies[i] == null) {
                done[i].cancel(true);
                replies[i] = CqlReply.sending(statements.get(i), client.protocolVersion());
                replies[i].fail(new DriverTimeoutException("no response within " + limit.toMillis() + " ms"));
                replies[i].ended();
            }
        }
        return replies;
    }
}
