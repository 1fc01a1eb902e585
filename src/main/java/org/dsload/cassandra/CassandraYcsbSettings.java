package org.dsload.cassandra;

import org.apache.jmeter.gui.TestElementMetadata;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Fields;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

/**
 * dsload YCSB Cassandra Settings: what the cassandra YCSB binding does beyond YCSB's workload, as
 * YCSB's cassandra-cql binding takes it from its own properties: the keyspace of the table,
 * whether to create both where missing and with which replication, and the consistency of reads
 * and of writes. YCSB Operation samplers name it in their Binding settings field; without one the
 * binding uses {@link Values#DEFAULTS}.
 */
@TestElementMetadata(labelResource = "displayName")
public class CassandraYcsbSettings extends ClientConfigElement<CassandraYcsbSettings.Values> {
    private static final long serialVersionUID = 1L;
    static final String DEFAULT_REPLICATION = "{'class': 'SimpleStrategy', 'replication_factor': 1}";

    private String keyspace = "ycsb";
    private String createSchema = "true";
    private String replication = DEFAULT_REPLICATION;
    private String readConsistency = "QUORUM";
    private String writeConsistency = "QUORUM";

    /**
     * The settings as the binding uses them.
     *
     * @param keyspace empty to leave the table unqualified (the session's keyspace applies)
     */
    public record Values(String keyspace, boolean createSchema, String replication, DefaultConsistencyLevel read,
            DefaultConsistencyLevel write) implements AutoCloseable {
        /** YCSB's cassandra-cql binding's: keyspace ycsb, created where missing, QUORUM reads and writes. */
        static final Values DEFAULTS = new Values("ycsb", true, DEFAULT_REPLICATION, DefaultConsistencyLevel.QUORUM,
                DefaultConsistencyLevel.QUORUM);

        /** Checks the fields of an element that has them (this one, or the YCSB Workload of older plans). */
        static Values parse(Fields f, String keyspace, String createSchema, String replication, String read,
                String write) {
            String space = f.text("keyspace", keyspace);
            if (!space.isEmpty() && !space.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw f.error("keyspace", "must be a plain CQL name (letters, digits, _) or empty, got '" + space + "'");
            }
            boolean schema = f.flag("createSchema", createSchema);
            if (schema && space.isEmpty()) {
                throw f.error("keyspace", "must be given when Create schema is on (the keyspace is created too)");
            }
            return new Values(space, schema, f.required("replication", replication),
                    CassandraConnection.level(f.choice("readConsistency", read, CassandraConnection.CONSISTENCY_LEVELS)),
                    CassandraConnection.level(f.choice("writeConsistency", write, CassandraConnection.CONSISTENCY_LEVELS)));
        }

        /** What the summary's YCSB section shows of them. */
        String describe() {
            return "keyspace=" + keyspace + "\nreadconsistency=" + read + "\nwriteconsistency=" + write + "\n";
        }

        @Override
        public void close() {
            // settings hold nothing to release
        }
    }

    @Override
    protected Values open(Fields f) {
        return Values.parse(f, keyspace, createSchema, replication, readConsistency, writeConsistency);
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
