package org.dsload.cassandra;

import java.util.Map;

import org.dsload.core.Fields;
import org.dsload.ycsb.YcsbWorkload;

/**
 * The YCSB Workload of plans saved when it lived in this package ({@code cassandra.YcsbWorkload},
 * which JMeter's NameUpdater loads as this class): the workload and, for the cassandra binding,
 * the keyspace, schema and consistency fields that now belong to a dsload YCSB Cassandra Settings.
 * Their samplers name no settings element, so the binding takes these. Hidden from the Add menus
 * (no {@code TestElementMetadata}, a hidden bean descriptor): new plans use the two elements.
 *
 * @deprecated kept so that saved plans open and run as they did; add a dsload YCSB Workload and a
 *             dsload YCSB Cassandra Settings instead
 */
@Deprecated
public class CassandraYcsbWorkload extends YcsbWorkload {
    private static final long serialVersionUID = 1L;

    private String keyspace = "ycsb";
    private String createSchema = "true";
    private String replication = CassandraYcsbSettings.DEFAULT_REPLICATION;
    private String readConsistency = "QUORUM";
    private String writeConsistency = "QUORUM";

    @Override
    protected Map<String, Object> bindingDefaults(Fields f) {
        return Map.of(new CassandraYcsbBindingProvider().name(), CassandraYcsbSettings.Values.parse(f, keyspace,
                createSchema, replication, readConsistency, writeConsistency));
    }

    public String getKeyspace() {
        return keyspace;
    }

    public void setKeyspace(String keyspace) {
        this.keyspace = keyspace;
    }

    public String getCreateSchema() {
        return createSchema;
    }

    public void setCreateSchema(String createSchema) {
        this.createSchema = createSchema;
    }

    public String getReplication() {
        return replication;
    }

    public void setReplication(String replication) {
        this.replication = replication;
    }

    public String getReadConsistency() {
        return readConsistency;
    }

    public void setReadConsistency(String readConsistency) {
        this.readConsistency = readConsistency;
    }

    public String getWriteConsistency() {
        return writeConsistency;
    }

    public void setWriteConsistency(String writeConsistency) {
        this.writeConsistency = writeConsistency;
    }
}
