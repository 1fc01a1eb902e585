package org.dsload.cassandra;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.dsload.core.ConnectionCounting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.codahale.metrics.Gauge;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metrics.DefaultNodeMetric;
import com.datastax.oss.driver.api.core.metrics.Metrics;

/**
 * The driver session a Cassandra Session element shares with its samplers: the session, the
 * statements prepared on it (each CQL text once per session, whichever thread asks first), and
 * what the samplers need to explain a failure.
 */
public final class CassandraClient implements AutoCloseable, ConnectionCounting {
    private static final Logger log = LoggerFactory.getLogger(CassandraClient.class);
    /** How long the count after the load waits for the driver to report the last replies. */
    static final Duration LAST_REPORTS = Duration.ofSeconds(5);

    private final CqlSession session;
    private final String target;
    private final Duration requestTimeout;
    /** The session's request tracker: what the samplers sent, for the cross-check. */
    private final RequestCounter counter;
    private final Map<String, CompletableFuture<PreparedStatement>> prepared = new ConcurrentHashMap<>();
    /** The server gauges recorded while the session is open, or null. */
    private AutoCloseable gauges;

    CassandraClient(CqlSession session, String target, Duration requestTimeout, RequestCounter counter) {
        this.session = session;
        this.target = target;
        this.requestTimeout = requestTimeout;
        this.counter = counter;
    }

    public CqlSession session() {
        return session;
    }

    /**
     * The statement prepared on this session. Threads asking for the same text while it is being
     * prepared wait for the one preparation; a failed preparation is not kept, so a later sample
     * tries again (the server may have been down, or the table missing).
     *
     * @throws RuntimeException the driver's exception (a SyntaxError, an InvalidQueryException ...)
     */
    public PreparedStatement prepare(String cql) {
        CompletableFuture<PreparedStatement> future = prepareAsync(cql);
        try {
            // The driver bounds a preparation by its request timeout; this is a backstop.
            return future.get(requestTimeout.toMillis() * 3 + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        } catch (TimeoutException e) {
            prepared.remove(cql, future);
            throw new DriverTimeoutException("preparing the statement took longer than " + requestTimeout.multipliedBy(3));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while preparing a statement", e);
        }
    }

    /**
     * The statement prepared on this session, without waiting: what a driver callback may ask for
     * (blocking there would hold up the connection the preparation's own reply comes in on). A
     * failed preparation is forgotten, as in {@link #prepare}.
     */
    public CompletableFuture<PreparedStatement> prepareAsync(String cql) {
        CompletableFuture<PreparedStatement> existing = prepared.get(cql);
        if (existing != null) {
            return existing;
        }
        CompletableFuture<PreparedStatement> made = new CompletableFuture<>();
        existing = prepared.putIfAbsent(cql, made);
        if (existing != null) {
            return existing;
        }
        try {
            session.prepareAsync(cql).whenComplete((statement, error) -> {
                if (error != null) {
                    prepared.remove(cql, made);
                    made.completeExceptionally(error);
                } else {
                    made.complete(statement);
                }
            });
        } catch (RuntimeException e) {
            prepared.remove(cql, made);
            made.completeExceptionally(e);
        }
        return made;
    }

    public ProtocolVersion protocolVersion() {
        return session.getContext().getProtocolVersion();
    }

    /** Contact points and data centre, for messages. */
    public String target() {
        return target;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** Connections the driver holds open to all nodes (its per-node open-connections gauge). */
    @Override
    public int openConnections() {
        Optional<Metrics> metrics = session.getMetrics();
        if (metrics.isEmpty()) {
            return 0;
        }
        int open = 0;
        for (Node node : session.getMetadata().getNodes().values()) {
            Optional<com.codahale.metrics.Metric> gauge = metrics.get().getNodeMetric(node, DefaultNodeMetric.OPEN_CONNECTIONS);
            if (gauge.isPresent() && gauge.get() instanceof Gauge<?> g && g.getValue() instanceof Number n) {
                open += n.intValue();
            }
        }
        return open;
    }

    /** The samplers read {@code pages} successful replies (see {@link RequestCounter#replied}). */
    void replied(long pages) {
        counter.replied(pages);
    }

    void recordGauges(AutoCloseable lease) {
        this.gauges = lease;
    }

    /**
     * The gauges are read a last time first: after the load, once the driver has counted its last
     * replies, before the session goes.
     */
    @Override
    public void close() {
        if (gauges != null) {
            if (!counter.awaitReported(LAST_REPORTS)) {
                log.warn("dsload: Cassandra session {}: the driver had not reported {} of the replies read after {} s; "
                        + "the cross-check of reads and writes may miss them", target, counter.unreported(),
                        LAST_REPORTS.toSeconds());
            }
            try {
                gauges.close();
            } catch (Exception e) {
                // the gauges are a side figure: closing the session matters more
            }
            gauges = null;
        }
        session.close();
    }
}
