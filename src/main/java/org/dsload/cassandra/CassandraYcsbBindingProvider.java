package org.dsload.cassandra;

import org.dsload.core.SharedClients;
import org.dsload.ycsb.WorkloadRun;
import org.dsload.ycsb.WorkloadSpec;
import org.dsload.ycsb.YcsbBinding;
import org.dsload.ycsb.YcsbBindingProvider;

/**
 * The YCSB binding {@code cassandra}: a dsload Cassandra Session's client, with the statements of
 * YCSB's cassandra-cql binding ({@link CassandraYcsbBinding}) and the settings of a dsload YCSB
 * Cassandra Settings element, or their defaults.
 */
public final class CassandraYcsbBindingProvider implements YcsbBindingProvider {

    @Override
    public String name() {
        return "cassandra";
    }

    @Override
    public Object client(String connection) {
        return SharedClients.lookup(connection, CassandraClient.class, "dsload Cassandra Session");
    }

    @Override
    public YcsbBinding bind(Object client, String settings, WorkloadRun run) {
        CassandraYcsbSettings.Values values;
        if (!settings.isEmpty()) {
            values = SharedClients.setting(settings, CassandraYcsbSettings.Values.class, "dsload YCSB Cassandra Settings");
        } else if (run.defaultSettings(name()) instanceof CassandraYcsbSettings.Values carried) {
            values = carried;
        } else {
            values = CassandraYcsbSettings.Values.DEFAULTS;
        }
        WorkloadSpec spec = run.workload().spec();
        run.bindingUsed(name(), values.describe());
        return new CassandraYcsbBinding((CassandraClient) client, values,
                new UsertableCql(values.keyspace(), spec.table(), spec.fieldCount()));
    }
}
