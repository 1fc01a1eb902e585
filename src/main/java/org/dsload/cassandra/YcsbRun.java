package org.dsload.cassandra;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.dsload.ycsb.WorkloadRun;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

/**
 * What a YCSB Workload element shares with its samplers for one test: the store-neutral run
 * ({@link WorkloadRun}) and the settings of the CQL binding (table, keyspace creation,
 * consistency levels), which other bindings ignore.
 */
public final class YcsbRun implements AutoCloseable {
    private final WorkloadRun shared;
    private final UsertableCql cql;
    private final String replication;
    private final boolean createSchema;
    private final DefaultConsistencyLevel readConsistency;
    private final DefaultConsistencyLevel writeConsistency;
    private final Set<String> bindingsUsed = ConcurrentHashMap.newKeySet();
    private final Consumer<Set<String>> onNewBinding;

    YcsbRun(WorkloadRun shared, UsertableCql cql, String replication, boolean createSchema,
            DefaultConsistencyLevel readConsistency, DefaultConsistencyLevel writeConsistency,
            Consumer<Set<String>> onNewBinding) {
        this.shared = shared;
        this.cql = cql;
        this.replication = replication;
        this.createSchema = createSchema;
        this.readConsistency = readConsistency;
        this.writeConsistency = writeConsistency;
        this.onNewBinding = onNewBinding;
    }

    public WorkloadRun shared() {
        return shared;
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

    /** Notes that a sampler drives the workload through this binding; the first use of each is recorded. */
    void bindingUsed(String binding) {
        if (bindingsUsed.add(binding)) {
            synchronized (this) {
                onNewBinding.accept(Set.copyOf(bindingsUsed));
            }
        }
    }

    @Override
    public void close() {
        shared.close();
    }
}
