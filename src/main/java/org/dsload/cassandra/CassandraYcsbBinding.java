package org.dsload.cassandra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.dsload.core.Outcome;
import org.dsload.ycsb.AsyncYcsbBinding;
import org.dsload.ycsb.YcsbBinding;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * YCSB on CQL, as YCSB's cassandra-cql binding does it: the statements of {@link UsertableCql},
 * prepared once per session, reads and scans at the read consistency, writes at the write
 * consistency, waiting for each reply or, for operations in flight, not. Its set-up creates only what is missing, after reading system_schema (which every
 * role may read): a role granted only on its keyspace never sends a CREATE KEYSPACE it would be
 * refused.
 */
final class CassandraYcsbBinding implements AsyncYcsbBinding {
    /**
     * Schema changes wait for every node to agree and may flush tables: on a busy node they take
     * seconds, longer than the request timeout meant for reads and writes.
     */
    private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(60);

    private final CassandraClient client;
    private final CassandraYcsbSettings.Values settings;
    private final UsertableCql cql;

    CassandraYcsbBinding(CassandraClient client, CassandraYcsbSettings.Values settings, UsertableCql cql) {
        this.client = client;
        this.settings = settings;
        this.cql = cql;
    }

    CassandraClient client() {
        return client;
    }

    @Override
    public SetUp setUp() {
        if (!settings.createSchema()) {
            return null;
        }
        return new SetUp() {
            @Override
            public String describe() {
                return "create if missing: " + cql.createKeyspace(settings.replication()) + ";\n" + cql.createTable();
            }

            @Override
            public Outcome run() {
                return createMissing(cql);
            }
        };
    }

    private Outcome createMissing(UsertableCql cql) {
        List<CqlReply> replies = new ArrayList<>();
        CqlReply keyspace = schema(replies, SimpleStatement.newInstance(
                "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?", cql.keyspace()));
        if (keyspace.ok() && keyspace.rows == 0) {
            schema(replies, SimpleStatement.newInstance(cql.createKeyspace(settings.replication())));
        }
        CqlReply table = last(replies).ok() ? schema(replies, SimpleStatement.newInstance(
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?",
                cql.keyspace(), cql.tableName())) : null;
        List<CqlReply> outlived = new ArrayList<>();
        if (table != null && table.ok() && table.rows == 0) {
            createTable(replies, outlived, cql);
        }
        long sent = replies.stream().mapToLong(r -> r.sent).sum();
        long received = replies.stream().mapToLong(r -> r.received).sum();
        CqlReply failed = replies.stream().filter(r -> !r.ok() && !outlived.contains(r)).findFirst().orElse(null);
        if (failed != null) {
            Outcome o = failed.outcome(client);
            return Outcome.failed(o.code(), o.message(), sent, received);
        }
        String made = keyspace.rows == 0 && table.rows == 0 ? "keyspace and table created"
                : keyspace.rows == 0 ? "keyspace created" : table.rows == 0 ? "table created"
                : "keyspace and table exist, nothing created";
        RuntimeException unusable = awaitUsable(cql);
        if (unusable != null) {
            return Outcome.failed(CassandraErrors.code(unusable), "the table is in the schema but cannot be written: "
                    + CassandraErrors.message(unusable, client), sent, received);
        }
        return Outcome.ok(OK, made + " (" + cql.keyspace() + "." + cql.tableName() + ")", sent, received);
    }

    /**
     * Creates the table, again while its coordinator does not know the keyspace yet: engines that
     * start together (one start instant) set up at the same moment, and the keyspace another engine
     * created through another node reaches this coordinator's schema a little later. A failure
     * followed by a later attempt goes into {@code outlived}.
     */
    private void createTable(List<CqlReply> replies, List<CqlReply> outlived, UsertableCql cql) {
        long deadline = System.nanoTime() + SCHEMA_TIMEOUT.toNanos();
        while (true) {
            CqlReply reply = schema(replies, SimpleStatement.newInstance(cql.createTable()));
            if (reply.ok() || !CassandraErrors.missingSchema(reply.outcome(client)) || System.nanoTime() - deadline > 0) {
                return;
            }
            outlived.add(reply);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outlived.remove(reply);
                return;
            }
            CqlReply keyspace = schema(replies, SimpleStatement.newInstance(cql.createKeyspace(settings.replication())));
            if (!keyspace.ok()) {
                return;
            }
        }
    }

    /**
     * Waits until the table takes inserts. Another generator may be creating it this moment (a
     * distributed run loads from every engine): its row is in system_schema before the node
     * accepts statements on it, so an insert right away would fail with "table does not exist".
     *
     * @return null once the insert prepares, else why it did not within the schema timeout
     */
    private RuntimeException awaitUsable(UsertableCql cql) {
        long deadline = System.nanoTime() + SCHEMA_TIMEOUT.toNanos();
        while (true) {
            try {
                client.prepare(cql.insert());
                return null;
            } catch (RuntimeException e) {
                boolean missing = CassandraErrors.missingSchema(Outcome.failed(CassandraErrors.code(e), CassandraErrors.message(e, client),
                        0, 0));
                if (!missing || System.nanoTime() - deadline > 0) {
                    return e;
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new IllegalStateException("interrupted while waiting for the table to take inserts", e);
            }
        }
    }

    private CqlReply schema(List<CqlReply> replies, SimpleStatement statement) {
        Duration timeout = client.requestTimeout().compareTo(SCHEMA_TIMEOUT) > 0 ? client.requestTimeout() : SCHEMA_TIMEOUT;
        CqlReply reply = CqlCall.execute(client, statement.setTimeout(timeout), true, null);
        replies.add(reply);
        return reply;
    }

    private static CqlReply last(List<CqlReply> replies) {
        return replies.get(replies.size() - 1);
    }

    @Override
    public Outcome read(String key, int field) {
        return call(reading(field, key));
    }

    @Override
    public Outcome scan(String startKey, int count, int field) {
        return call(scanning(field, startKey, count));
    }

    @Override
    public Outcome update(String key, int field, String[] values) {
        return call(updating(key, field, values));
    }

    @Override
    public Outcome insert(String key, String[] values) {
        return call(inserting(key, values));
    }

    @Override
    public Outcome delete(String key) {
        return call(new Request(cql.delete(), settings.write(), Kind.WRITE, key));
    }

    @Override
    public CompletionStage<Outcome> readAsync(String key, int field) {
        return send(reading(field, key));
    }

    @Override
    public CompletionStage<Outcome> scanAsync(String startKey, int count, int field) {
        return send(scanning(field, startKey, count));
    }

    @Override
    public CompletionStage<Outcome> updateAsync(String key, int field, String[] values) {
        return send(updating(key, field, values));
    }

    @Override
    public CompletionStage<Outcome> insertAsync(String key, String[] values) {
        return send(inserting(key, values));
    }

    /** Twice the request timeout and 5 s: a read-modify-write is two requests, each bounded by the driver. */
    @Override
    public long backstopNanos() {
        return client.requestTimeout().multipliedBy(2).plusSeconds(5).toNanos();
    }

    @Override
    public Outcome timedOut() {
        return Outcome.failed(DriverTimeoutException.class.getSimpleName(), "no reply within "
                + backstopNanos() / 1_000_000 + " ms, twice the request timeout of "
                + client.requestTimeout().toMillis() + " ms and 5 s: the driver did not end the operation itself ["
                + client.target() + "]", 0, 0);
    }

    @Override
    public boolean unreachable(Outcome failed) {
        return CassandraErrors.unreachable(failed);
    }

    @Override
    public boolean unrecoverable(Outcome failed) {
        return CassandraErrors.unrecoverable(failed);
    }

    private enum Kind { READ, SCAN, WRITE }

    /** One statement of the binding: its CQL, consistency, what a reply means, and the values to bind. */
    private record Request(String cql, DefaultConsistencyLevel consistency, Kind kind, Object... values) {
    }

    private Request reading(int field, String key) {
        return new Request(cql.read(field), settings.read(), Kind.READ, key);
    }

    private Request scanning(int field, String startKey, int count) {
        return new Request(cql.scan(field), settings.read(), Kind.SCAN, startKey, count);
    }

    private Request updating(String key, int field, String[] values) {
        Object[] bound = new Object[values.length + 1];
        System.arraycopy(values, 0, bound, 0, values.length);
        bound[values.length] = key;
        return new Request(cql.update(field), settings.write(), Kind.WRITE, bound);
    }

    private Request inserting(String key, String[] values) {
        Object[] bound = new Object[values.length + 1];
        bound[0] = key;
        System.arraycopy(values, 0, bound, 1, values.length);
        return new Request(cql.insert(), settings.write(), Kind.WRITE, bound);
    }

    /** Prepares (once per session), binds, runs. */
    private Outcome call(Request request) {
        Statement<?> statement;
        try {
            statement = bound(request);
        } catch (RuntimeException e) {
            return notPrepared(e);
        }
        return outcome(request.kind(), CqlCall.execute(client, statement, true, null));
    }

    /**
     * Prepares (once per session), binds, and sends, without waiting anywhere: the update of a
     * read-modify-write is sent from the driver's thread that read the record.
     */
    private CompletionStage<Outcome> send(Request request) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        CompletableFuture<PreparedStatement> preparing = client.prepareAsync(request.cql());
        if (preparing.isDone() && !preparing.isCompletedExceptionally()) {
            send(request, preparing.join(), null, outcome); // prepared long ago: no stage to wait on
        } else {
            preparing.whenComplete((prepared, error) -> send(request, prepared, error, outcome));
        }
        return outcome;
    }

    private void send(Request request, PreparedStatement prepared, Throwable error, CompletableFuture<Outcome> outcome) {
        Statement<?> statement;
        try {
            if (error != null) {
                throw CassandraErrors.unwrap(error) instanceof RuntimeException e ? e : new IllegalStateException(error);
            }
            statement = prepared.bind(request.values()).setConsistencyLevel(request.consistency());
        } catch (RuntimeException e) {
            outcome.complete(notPrepared(e));
            return;
        }
        CqlAsync.send(client, CqlReply.sending(statement, client.protocolVersion()), statement, null, true,
                reply -> outcome.complete(outcome(request.kind(), reply)));
    }

    private Statement<?> bound(Request request) {
        return client.prepare(request.cql()).bind(request.values()).setConsistencyLevel(request.consistency());
    }

    private Outcome notPrepared(RuntimeException e) {
        return Outcome.failed(CassandraErrors.code(e), "preparing the statement failed: " + CassandraErrors.message(e, client), 0, 0);
    }

    /** What a reply means for YCSB: a read that finds no row is NOT_FOUND, a write is OK. */
    private Outcome outcome(Kind kind, CqlReply reply) {
        if (kind == Kind.READ && reply.ok() && reply.rows == 0) {
            return YcsbBinding.notFound(reply.sent, reply.received);
        }
        if (kind == Kind.WRITE && reply.ok()) {
            return Outcome.ok(OK, OK, reply.sent, reply.received);
        }
        return reply.outcome(client);
    }
}
