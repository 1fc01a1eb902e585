package org.dsload.cassandra;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.dsload.ycsb.Workload;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

/**
 * What a YCSB Workload element shares with its samplers for one test: the workload's state, its
 * CQL, the consistency levels, and the one-time schema creation the first load sample performs
 * while the other load threads wait for it.
 */
public final class YcsbRun implements AutoCloseable {
    private final Workload workload;
    private final UsertableCql cql;
    private final String replication;
    private final boolean createSchema;
    private final DefaultConsistencyLevel readConsistency;
    private final DefaultConsistencyLevel writeConsistency;
    private final AtomicBoolean schemaClaimed = new AtomicBoolean();
    private final CompletableFuture<String> schema = new CompletableFuture<>();

    YcsbRun(Workload workload, UsertableCql cql, String replication, boolean createSchema,
            DefaultConsistencyLevel readConsistency, DefaultConsistencyLevel writeConsistency) {
        this.workload = workload;
        this.cql = cql;
        this.replication = replication;
        this.createSchema = createSchema;
        this.readConsistency = readConsistency;
        this.writeConsistency = writeConsistency;
        if (!createSchema) {
            schema.complete(null);
        }
    }

    public Workload workload() {
        return workload;
    }

    UsertableCql cql() {
        return cql;
    }

    String replication() {
        return replication;
    }

    boolean createsSchema() {
        return createSchema;
    }

    DefaultConsistencyLevel readConsistency() {
        return readConsistency;
    }

    DefaultConsistencyLevel writeConsistency() {
        return writeConsistency;
    }

    /** True for exactly one caller, who must then call {@link #schemaDone}. */
    boolean claimSchema() {
        return createSchema && schemaClaimed.compareAndSet(false, true);
    }

    /** @param failure null when the schema is in place, else why not */
    void schemaDone(String failure) {
        schema.complete(failure);
    }

    /** Null when the schema is in place, else why it is not; waits for the claimant. */
    CompletableFuture<String> schema() {
        return schema;
    }

    @Override
    public void close() {
        schema.complete("the test ended");
    }
}
