package org.dsload.cassandra;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * One statement run synchronously on the shared session, its rows read (the first page, or every
 * page), and what a sample reports of it: rows, pages, bytes each way, the coordinator, the
 * server's warnings, or the error. The caller times it; an error is kept, never thrown.
 */
final class CqlExecution {
    /** Sees every row read, for rendering; may stop looking (rows are still counted). */
    interface RowSink {
        void columns(ColumnDefinitions columns);

        void row(Row row);
    }

    // Run concurrently, one driver thread writes these; the sample reads them after waiting for the
    // completion of that thread's stage, which orders the writes before the reads.
    long rows;
    int pages;
    long sent;
    long received;
    ExecutionInfo info;
    RuntimeException error;
    boolean applied = true;
    boolean conditional;
    final List<String> warnings = new ArrayList<>();

    static CqlExecution run(CqlClient client, Statement<?> statement, boolean allPages, RowSink sink) {
        CqlExecution e = new CqlExecution();
        ProtocolVersion version = client.protocolVersion();
        e.sent = CqlFrames.request(statement, version);
        try {
            ResultSet rs = client.session().execute(statement);
            ColumnDefinitions columns = rs.getColumnDefinitions();
            if (sink != null && columns.size() > 0) {
                sink.columns(columns);
            }
            if (columns.contains("[applied]")) {
                e.conditional = true;
                e.applied = rs.wasApplied();
            }
            Iterator<Row> it = rs.iterator();
            if (allPages) {
                while (it.hasNext()) {
                    e.read(it.next(), sink);
                }
            } else {
                for (int n = rs.getAvailableWithoutFetching(); n > 0; n--) {
                    e.read(it.next(), sink);
                }
            }
            e.account(rs.getExecutionInfos(), statement, version);
        } catch (RuntimeException failure) {
            e.error = failure;
            if (failure instanceof DriverException driver && driver.getExecutionInfo() != null) {
                e.received += Math.max(0, driver.getExecutionInfo().getResponseSizeInBytes());
                e.info = driver.getExecutionInfo();
            }
        }
        return e;
    }

    /** Records a failure that reached the driver's asynchronous result. */
    void fail(Throwable failure) {
        error = failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
        if (failure instanceof DriverException driver && driver.getExecutionInfo() != null) {
            received += Math.max(0, driver.getExecutionInfo().getResponseSizeInBytes());
            info = driver.getExecutionInfo();
        }
    }

    void firstPage(AsyncResultSet rs, RowSink sink) {
        CqlConcurrent.read(this, rs, sink);
    }

    private void read(Row row, RowSink sink) {
        rows++;
        if (sink != null) {
            sink.row(row);
        }
    }

    /** Each page after the first was asked for with the paging state of the one before. */
    private void account(List<ExecutionInfo> infos, Statement<?> statement, ProtocolVersion version) {
        ByteBuffer previousPagingState = null;
        for (ExecutionInfo page : infos) {
            pages++;
            received += Math.max(0, page.getResponseSizeInBytes());
            if (previousPagingState != null) {
                sent += CqlFrames.request(statement, version, previousPagingState);
            }
            previousPagingState = page.getPagingState();
            warnings.addAll(page.getWarnings());
            info = page;
        }
    }

    boolean ok() {
        return error == null;
    }

    String coordinator() {
        return info == null ? "unknown" : CqlErrors.address(info.getCoordinator());
    }
}
