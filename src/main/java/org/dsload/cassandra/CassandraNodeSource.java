package org.dsload.cassandra;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.dsload.core.Errors;
import org.dsload.gauges.GaugeSource;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;

/**
 * One Cassandra node's virtual tables ({@code system_views}, Cassandra 4.0 and later) read over
 * CQL, no JMX: thread pools, client connections, coordinator and local read/write counts and
 * latencies of the user tables, caches. A virtual table shows the node that answers, so every
 * query is sent to this node ({@code Statement.setNode}). A role without SELECT on
 * system_views is a refusal.
 */
final class CassandraNodeSource implements GaugeSource {
    /** Thread pools shown on their own (active, pending, blocked); all are summed too. */
    private static final Map<String, String> POOLS = Map.of("Native-Transport-Requests", "native",
            "ReadStage", "read", "MutationStage", "mutation", "CompactionExecutor", "compaction",
            "MemtableFlushWriter", "flush");
    /** Virtual table of per-table latencies, and the column prefix its sums get. */
    private static final Map<String, String> LATENCIES = Map.of("coordinator_read_latency", "coordinator_reads",
            "coordinator_scan_latency", "coordinator_scans", "coordinator_write_latency", "coordinator_writes",
            "local_read_latency", "local_reads", "local_write_latency", "local_writes");

    private final CqlSession session;
    private final Node node;
    private final String name;
    private final long timeoutMillis;

    CassandraNodeSource(CqlSession session, Node node, long timeoutMillis) {
        this.session = session;
        this.node = node;
        this.name = CassandraErrors.address(node);
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Reading> read(long now) throws Refused, IOException {
        Map<String, CompletableFuture<List<Row>>> queries = new HashMap<>();
        queries.put("thread_pools", query("SELECT name, active_tasks, pending_tasks, blocked_tasks, "
                + "blocked_tasks_all_time FROM system_views.thread_pools"));
        queries.put("clients", query("SELECT request_count FROM system_views.clients"));
        queries.put("caches", query("SELECT name, hit_count, request_count, entry_count, size_bytes "
                + "FROM system_views.caches"));
        for (String table : LATENCIES.keySet()) {
            queries.put(table, query("SELECT keyspace_name, count, p99th_ms FROM system_views." + table));
        }
        Map<String, String> values = new HashMap<>();
        try {
            CompletableFuture.allOf(queries.values().toArray(CompletableFuture[]::new))
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
            pools(queries.get("thread_pools").join(), values);
            clients(queries.get("clients").join(), values);
            caches(queries.get("caches").join(), values);
            for (Map.Entry<String, String> t : LATENCIES.entrySet()) {
                latencies(queries.get(t.getKey()).join(), t.getValue(), values);
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnauthorizedException || cause instanceof InvalidQueryException) {
                throw new Refused(Errors.sentence(cause.getMessage()));
            }
            throw new IOException(Errors.describe(cause), cause);
        } catch (TimeoutException e) {
            queries.values().forEach(q -> q.cancel(true));
            throw new IOException("no answer within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return List.of(new Reading(name, now, values));
    }

    private CompletableFuture<List<Row>> query(String cql) {
        SimpleStatement statement = SimpleStatement.newInstance(cql).setNode(node);
        CompletableFuture<List<Row>> rows = new CompletableFuture<>();
        session.executeAsync(statement).whenComplete((rs, error) -> {
            if (error != null) {
                rows.completeExceptionally(error);
            } else {
                collect(rs, new ArrayList<>(), rows);
            }
        });
        return rows;
    }

    /** Virtual tables are small, but a driver may still page them. */
    private static void collect(AsyncResultSet rs, List<Row> into, CompletableFuture<List<Row>> done) {
        rs.currentPage().forEach(into::add);
        if (rs.hasMorePages()) {
            rs.fetchNextPage().whenComplete((next, error) -> {
                if (error != null) {
                    done.completeExceptionally(error);
                } else {
                    collect(next, into, done);
                }
            });
        } else {
            done.complete(into);
        }
    }

    private static void pools(List<Row> rows, Map<String, String> values) {
        long pending = 0;
        long blocked = 0;
        long blockedAllTime = 0;
        long active = 0;
        for (Row row : rows) {
            String pool = POOLS.get(row.getString("name"));
            if (pool != null) {
                values.put(pool + "_active", Long.toString(number(row, "active_tasks")));
                values.put(pool + "_pending", Long.toString(number(row, "pending_tasks")));
                values.put(pool + "_blocked", Long.toString(number(row, "blocked_tasks")));
            }
            active += number(row, "active_tasks");
            pending += number(row, "pending_tasks");
            blocked += number(row, "blocked_tasks");
            blockedAllTime += number(row, "blocked_tasks_all_time");
        }
        values.put("active_total", Long.toString(active));
        values.put("pending_total", Long.toString(pending));
        values.put("blocked_total", Long.toString(blocked));
        values.put("blocked_all_time_total", Long.toString(blockedAllTime));
    }

    private static void clients(List<Row> rows, Map<String, String> values) {
        long requests = 0;
        for (Row row : rows) {
            requests += number(row, "request_count");
        }
        values.put("client_connections", Integer.toString(rows.size()));
        values.put("client_requests", Long.toString(requests));
    }

    private static void caches(List<Row> rows, Map<String, String> values) {
        for (Row row : rows) {
            String cache = row.getString("name");
            if ("keys".equals(cache) || "rows".equals(cache)) {
                String prefix = cache.equals("keys") ? "key_cache" : "row_cache";
                values.put(prefix + "_hits", Long.toString(number(row, "hit_count")));
                values.put(prefix + "_requests", Long.toString(number(row, "request_count")));
                values.put(prefix + "_entries", Long.toString(number(row, "entry_count")));
                values.put(prefix + "_bytes", Long.toString(number(row, "size_bytes")));
            }
        }
    }

    /** The user tables' counts summed, and the largest p99 of a table that served anything. */
    private static void latencies(List<Row> rows, String prefix, Map<String, String> values) {
        long count = 0;
        double p99 = 0;
        for (Row row : rows) {
            if (CqlRequestKind.isSystem(row.getString("keyspace_name"))) {
                continue;
            }
            long n = number(row, "count");
            count += n;
            if (n > 0) {
                Object v = row.getObject("p99th_ms");
                p99 = Math.max(p99, v instanceof Number d ? d.doubleValue() : 0);
            }
        }
        values.put(prefix, Long.toString(count));
        values.put(prefix + "_p99_ms", Double.toString(p99));
    }

    /** A counter column, whatever integer type this Cassandra version gives it; 0 when null. */
    private static long number(Row row, String column) {
        Object v = row.getObject(column);
        return v instanceof Number n ? n.longValue() : 0;
    }
}
