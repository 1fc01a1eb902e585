package org.dsload.cassandra;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.Outcome;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * What one CQL request came to, however its reply arrived (a blocking call, {@link CqlCall}, or a
 * driver callback, {@link CqlAsync}): rows and pages read, bytes each way, the node that answered,
 * the server's warnings or the error, its send and end times; and from those the
 * {@link Outcome} a results row shows. Never throws: an error is kept.
 */
final class CqlReply {
    static final String OK = "OK";
    static final String NOT_APPLIED = "NOT_APPLIED";
    private static final String ONE_ROW = "1 row";
    private static final String NO_ROWS = "0 rows";
    /** The column a conditional statement's result has; an identifier, so that looking for it makes no string. */
    private static final CqlIdentifier APPLIED = CqlIdentifier.fromInternal("[applied]");

    /** Sees every row read, for rendering; may stop looking (rows are still counted). */
    interface RowSink {
        void columns(ColumnDefinitions columns);

        void row(Row row);
    }

    // Filled by one thread (the sampler's, or one driver thread for an asynchronous request); read by the
    // sampler after the request's stage completed, which orders the writes before the reads.
    long rows;
    int pages;
    long sent;
    long received;
    long sendNanos;
    long endNanos;
    ExecutionInfo info;
    Throwable error;
    boolean applied = true;
    boolean conditional;
    final List<String> warnings = new ArrayList<>();

    /** A request about to be sent: its bytes on the wire as the native protocol encodes it. */
    static CqlReply sending(Statement<?> statement, ProtocolVersion version) {
        CqlReply reply = new CqlReply();
        reply.sent = CqlFrames.request(statement, version);
        reply.sendNanos = System.nanoTime();
        return reply;
    }

    /** @return whether the statement was conditional (its result has an [applied] column) */
    boolean columns(ColumnDefinitions columns, RowSink sink) {
        if (sink != null && columns.size() > 0) {
            sink.columns(columns);
        }
        conditional = columns.contains(APPLIED);
        return conditional;
    }

    void row(Row row, RowSink sink) {
        rows++;
        if (sink != null) {
            sink.row(row);
        }
    }

    /** Reads the first page of an asynchronous result. */
    void firstPage(AsyncResultSet rs, RowSink sink) {
        if (columns(rs.getColumnDefinitions(), sink)) {
            applied = rs.wasApplied();
        }
        nextPage(rs, sink);
    }

    /** Reads one more page of an asynchronous result (its request is counted by the caller). */
    void nextPage(AsyncResultSet rs, RowSink sink) {
        for (Row row : rs.currentPage()) {
            row(row, sink);
        }
        page(rs.getExecutionInfo());
    }

    /** One page answered; each page after the first was asked for with the paging state of the one before. */
    void pages(List<ExecutionInfo> infos, Statement<?> statement, ProtocolVersion version) {
        ByteBuffer previousPagingState = null;
        for (ExecutionInfo page : infos) {
            if (previousPagingState != null) {
                sent += CqlFrames.request(statement, version, previousPagingState);
            }
            previousPagingState = page.getPagingState();
            page(page);
        }
    }

    private void page(ExecutionInfo page) {
        pages++;
        received += Math.max(0, page.getResponseSizeInBytes());
        warnings.addAll(page.getWarnings());
        info = page;
    }

    /** The request failed (what the driver threw, or what reached its asynchronous result). */
    void fail(Throwable failure) {
        error = CassandraErrors.unwrap(failure);
        if (error instanceof NoNodeAvailableException) {
            sent = 0; // no node to send it to: the request never reached the wire
        }
        if (error instanceof DriverException driver && driver.getExecutionInfo() != null) {
            received += Math.max(0, driver.getExecutionInfo().getResponseSizeInBytes());
            info = driver.getExecutionInfo();
        }
    }

    void ended() {
        endNanos = System.nanoTime();
    }

    boolean ok() {
        return error == null;
    }

    /** OK or NOT_APPLIED with the rows read, or the driver error's code and a message naming the node. */
    Outcome outcome(CassandraClient client) {
        if (error != null) {
            return Outcome.failed(CassandraErrors.code(error), CassandraErrors.message(error, client), sent, received);
        }
        String message;
        if (pages <= 1 && !conditional && rows <= 1) {
            message = rows == 1 ? ONE_ROW : NO_ROWS; // the usual replies, without building a message each time
        } else {
            message = rows + (rows == 1 ? " row" : " rows") + (pages > 1 ? " in " + pages + " pages" : "");
            if (conditional) {
                message += applied ? ", applied" : ", not applied";
            }
        }
        return Outcome.ok(applied ? OK : NOT_APPLIED, message, sent, received);
    }

    String coordinator() {
        return info == null ? "unknown" : CassandraErrors.address(info.getCoordinator());
    }
}
