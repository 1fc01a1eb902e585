package org.dsload.cassandra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.Outcome;
import org.dsload.ycsb.YcsbBinding;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

/**
 * YCSB on CQL, as YCSB's cassandra-cql binding does it: the statements of {@link UsertableCql},
 * prepared once per session, reads and scans at the read consistency, writes at the write
 * consistency. Its set-up creates only what is missing, after reading system_schema (which every
 * role may read): a role granted only on its keyspace never sends a CREATE KEYSPACE it would be
 * refused.
 */
final class CqlYcsbBinding implements YcsbBinding {
    /**
     * Schema changes wait for every node to agree and may flush tables: on a busy node they take
     * seconds, longer than the request timeout meant for reads and writes.
     */
    private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(60);

    private final CqlClient client;
    private final YcsbRun run;

    CqlYcsbBinding(CqlClient client, YcsbRun run) {
        this.client = client;
        this.run = run;
    }

    CqlClient client() {
        return client;
    }

    @Override
    public SetUp setUp() {
        if (!run.createsSchema()) {
            return null;
        }
        UsertableCql cql = run.cql();
        return new SetUp() {
            @Override
            public String describe() {
                return "create if missing: " + cql.createKeyspace(run.replication()) + ";\n" + cql.createTable();
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
            schema(replies, SimpleStatement.newInstance(cql.createKeyspace(run.replication())));
        }
        CqlReply table = last(replies).ok() ? schema(replies, SimpleStatement.newInstance(
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?",
                cql.keyspace(), cql.tableName())) : null;
        if (table != null && table.ok() && table.rows == 0) {
            schema(replies, SimpleStatement.newInstance(cql.createTable()));
        }
        long sent = replies.stream().mapToLong(r -> r.sent).sum();
        long received = replies.stream().mapToLong(r -> r.received).sum();
        CqlReply failed = replies.stream().filter(r -> !r.ok()).findFirst().orElse(null);
        if (failed != null) {
            Outcome o = failed.outcome(client);
            return Outcome.failed(o.code(), o.message(), sent, received);
        }
        String made = keyspace.rows == 0 && table.rows == 0 ? "keyspace and table created"
                : keyspace.rows == 0 ? "keyspace created" : table.rows == 0 ? "table created"
                : "keyspace and table exist, nothing created";
        return Outcome.ok(OK, made + " (" + cql.keyspace() + "." + cql.tableName() + ")", sent, received);
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
        return call(run.cql().read(field), run.readConsistency(), Kind.READ, key);
    }

    @Override
    public Outcome scan(String startKey, int count, int field) {
        return call(run.cql().scan(field), run.readConsistency(), Kind.SCAN, startKey, count);
    }

    @Override
    public Outcome update(String key, int field, String[] values) {
        Object[] bound = new Object[values.length + 1];
        System.arraycopy(values, 0, bound, 0, values.length);
        bound[values.length] = key;
        return call(run.cql().update(field), run.writeConsistency(), Kind.WRITE, bound);
    }

    @Override
    public Outcome insert(String key, String[] values) {
        Object[] bound = new Object[values.length + 1];
        bound[0] = key;
        System.arraycopy(values, 0, bound, 1, values.length);
        return call(run.cql().insert(), run.writeConsistency(), Kind.WRITE, bound);
    }

    @Override
    public Outcome delete(String key) {
        return call(run.cql().delete(), run.writeConsistency(), Kind.WRITE, key);
    }

    @Override
    public boolean unrecoverable(Outcome failed) {
        return CqlErrors.unrecoverable(failed);
    }

    private enum Kind { READ, SCAN, WRITE }

    /** Prepares (once per session), binds, runs; a read that finds no row is NOT_FOUND. */
    private Outcome call(String cql, DefaultConsistencyLevel consistency, Kind kind, Object... values) {
        Statement<?> statement;
        try {
            statement = client.prepare(cql).bind(values).setConsistencyLevel(consistency);
        } catch (RuntimeException e) {
            return Outcome.failed(CqlErrors.code(e), "preparing the statement failed: " + CqlErrors.message(e, client),
                    0, 0);
        }
        CqlReply reply = CqlCall.execute(client, statement, true, null);
        if (kind == Kind.READ && reply.ok() && reply.rows == 0) {
            return YcsbBinding.notFound(reply.sent, reply.received);
        }
        if (kind == Kind.WRITE && reply.ok()) {
            return Outcome.ok(OK, OK, reply.sent, reply.received);
        }
        return reply.outcome(client);
    }
}
