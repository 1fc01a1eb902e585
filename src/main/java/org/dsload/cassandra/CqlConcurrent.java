package org.dsload.cassandra;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * Several statements of one sample in flight at once on the shared session, the sample ending
 * when the last response is in: what a thread of an asynchronous client does, and a way to drive
 * a cluster with fewer JMeter threads. Each request reads its first page only; rows of the first
 * request are shown.
 */
final class CqlConcurrent {
    private CqlConcurrent() {
    }

    /** One execution per statement, in order; none is left unfinished (a late one counts as timed out). */
    static CqlExecution[] run(CqlClient client, List<Statement<?>> statements, CqlExecution.RowSink sink) {
        ProtocolVersion version = client.protocolVersion();
        CqlExecution[] runs = new CqlExecution[statements.size()];
        CompletableFuture<?>[] done = new CompletableFuture<?>[runs.length];
        for (int i = 0; i < runs.length; i++) {
            CqlExecution e = new CqlExecution();
            runs[i] = e;
            Statement<?> statement = statements.get(i);
            e.sent = CqlFrames.request(statement, version);
            CqlExecution.RowSink rows = i == 0 ? sink : null;
            done[i] = client.session().executeAsync(statement).toCompletableFuture()
                    .handle((rs, error) -> {
                        if (error != null) {
                            e.fail(CqlErrors.unwrap(error));
                        } else {
                            e.firstPage(rs, rows);
                        }
                        return null;
                    });
        }
        // The driver ends every request within its timeout; this only guards against a lost callback.
        Duration limit = client.requestTimeout().multipliedBy(2).plusSeconds(5);
        try {
            CompletableFuture.allOf(done).get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            abandon(runs, done, limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(runs, done, limit);
        }
        return runs;
    }

    private static void abandon(CqlExecution[] runs, CompletableFuture<?>[] done, Duration limit) {
        for (int i = 0; i < runs.length; i++) {
            if (!done[i].isDone()) {
                done[i].cancel(true);
                runs[i].fail(new DriverTimeoutException("no response within " + limit.toMillis() + " ms"));
            }
        }
    }

    /** Reads the first page of an asynchronous result into the execution. */
    static void read(CqlExecution e, AsyncResultSet rs, CqlExecution.RowSink sink) {
        ColumnDefinitions columns = rs.getColumnDefinitions();
        if (sink != null && columns.size() > 0) {
            sink.columns(columns);
        }
        if (columns.contains("[applied]")) {
            e.conditional = true;
            e.applied = rs.wasApplied();
        }
        for (Row row : rs.currentPage()) {
            e.rows++;
            if (sink != null) {
                sink.row(row);
            }
        }
        e.pages = 1;
        e.received += Math.max(0, rs.getExecutionInfo().getResponseSizeInBytes());
        e.warnings.addAll(rs.getExecutionInfo().getWarnings());
        e.info = rs.getExecutionInfo();
    }
}
