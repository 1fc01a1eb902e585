package org.dsload.cassandra;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;

/**
 * Counts the reads and writes a session sent to Cassandra nodes, for the cross-check against the
 * nodes' coordinator metrics: every request a node answered (with rows or with an error), so
 * each page, retry and speculative execution counts once, as it does on the coordinator
 * ({@link CqlRequestKind} says what counts as what).
 *
 * <p>The driver tells its tracker of a reply only after it has handed the reply over: it completes
 * the request's future, which wakes the sampler or runs its callback, and then, on the same I/O
 * thread, calls {@code onNodeSuccess} and {@code onSuccess}. A sample can therefore be recorded,
 * and the test end, before its reply is counted here. The samplers tell this counter of every
 * reply they read ({@link #replied}); the count read after the load waits until the driver has
 * reported as many ({@link #awaitReported}).
 */
final class RequestCounter implements RequestTracker {
    static final String READS = "reads";
    static final String WRITES = "writes";

    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    /** Successful replies the samplers read, each page one. */
    private final LongAdder replied = new LongAdder();
    /** Requests the driver reported ended with a result: each after its reply was counted. */
    private final LongAdder reported = new LongAdder();
    /** The session's keyspace (the element's Keyspace field), for table names without one. */
    private final String sessionKeyspace;

    RequestCounter(String sessionKeyspace) {
        this.sessionKeyspace = sessionKeyspace == null || sessionKeyspace.isEmpty() ? null
                : CqlIdentifier.fromCql(sessionKeyspace).asInternal();
    }

    @Override
    public void onNodeSuccess(Request request, long latencyNanos, DriverExecutionProfile profile, Node node,
            String logPrefix) {
        count(request);
    }

    /** The driver's last word on a request that got its result, after {@link #onNodeSuccess}. */
    @Override
    public void onSuccess(Request request, long latencyNanos, DriverExecutionProfile profile, Node node,
            String logPrefix) {
        reported.increment();
    }

    /**
     * A node's error is counted before the driver retries or fails the request, so before the
     * sampler sees the failure: no waiting is needed for it.
     */
    @Override
    public void onNodeError(Request request, Throwable error, long latencyNanos, DriverExecutionProfile profile,
            Node node, String logPrefix) {
        count(request);
    }

    /** Runs on the driver's I/O threads: quick, and never throws. */
    void count(Request request) {
        try {
            if (request instanceof BatchStatement batch) {
                countBatch(batch);
            } else {
                CqlRequestKind.Parsed parsed = parsed(request);
                if (parsed.kind() == CqlRequestKind.Kind.NONE || allSystem(parsed, keyspace(request))) {
                    return;
                }
                if (parsed.kind() == CqlRequestKind.Kind.WRITE) {
                    writes.increment();
                } else {
                    reads.increment();
                }
            }
        } catch (RuntimeException e) {
            // a statement this cannot read is left out of the count; the load must not notice
        }
    }

    private void countBatch(BatchStatement batch) {
        Set<String> tables = new HashSet<>();
        boolean conditional = false;
        String batchKeyspace = keyspace(batch);
        for (BatchableStatement<?> child : batch) {
            CqlRequestKind.Parsed parsed = parsed(child);
            String keyspace = keyspace(child) != null ? keyspace(child) : batchKeyspace;
            conditional |= parsed.kind() == CqlRequestKind.Kind.CONDITIONAL;
            for (String table : parsed.tables()) {
                String space = CqlRequestKind.keyspaceOf(table, keyspace);
                if (!CqlRequestKind.isSystem(space)) {
                    tables.add(table.indexOf('.') >= 0 ? table : space + "." + table);
                }
            }
        }
        if (tables.isEmpty()) {
            return;
        }
        if (conditional) {
            reads.increment();
        } else {
            writes.add(tables.size());
        }
    }

    /** A loop, not a stream: this runs on the driver's I/O thread for every reply. */
    private boolean allSystem(CqlRequestKind.Parsed parsed, String keyspace) {
        for (String table : parsed.tables()) {
            if (!CqlRequestKind.isSystem(CqlRequestKind.keyspaceOf(table, keyspace))) {
                return false;
            }
        }
        return true;
    }

    private static CqlRequestKind.Parsed parsed(Request request) {
        if (request instanceof BoundStatement bound) {
            return CqlRequestKind.parse(bound.getPreparedStatement().getQuery());
        }
        if (request instanceof SimpleStatement simple) {
            return CqlRequestKind.parse(simple.getQuery());
        }
        return CqlRequestKind.Parsed.NONE;
    }

    /** The keyspace a bare table name is in: the prepared statement's, the statement's, or the session's. */
    private String keyspace(Request request) {
        if (request instanceof BoundStatement bound) {
            PreparedStatement prepared = bound.getPreparedStatement();
            String fromColumns = keyspace(prepared.getVariableDefinitions());
            if (fromColumns == null) {
                fromColumns = keyspace(prepared.getResultSetDefinitions());
            }
            if (fromColumns != null) {
                return fromColumns;
            }
        }
        CqlIdentifier own = request.getKeyspace() != null ? request.getKeyspace() : request.getRoutingKeyspace();
        return own != null ? own.asInternal() : sessionKeyspace;
    }

    private static String keyspace(ColumnDefinitions columns) {
        return columns == null || columns.size() == 0 ? null : columns.get(0).getKeyspace().asInternal();
    }

    /**
     * A sampler read {@code pages} successful replies (pages of one request, each its own request
     * to the driver); called once the sampler has them, before its sample is recorded.
     */
    void replied(long pages) {
        if (pages > 0) {
            replied.add(pages);
        }
    }

    /**
     * Waits until the driver has reported every reply the samplers read, so that a count taken
     * after the load holds the last requests too; called at test end, when no request is sent any
     * more. The driver reports within microseconds of the reply; {@code limit} only bounds a wait
     * for a report that never comes.
     *
     * @return whether every reply was reported within {@code limit}
     */
    boolean awaitReported(Duration limit) {
        long read = replied.sum();
        long deadline = System.nanoTime() + limit.toNanos();
        while (reported.sum() < read) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Replies the samplers read that the driver has not reported yet. */
    long unreported() {
        return Math.max(0, replied.sum() - reported.sum());
    }

    Map<String, Long> snapshot() {
        return Map.of(READS, reads.sum(), WRITES, writes.sum());
    }

    @Override
    public void close() {
        // nothing held
    }
}
