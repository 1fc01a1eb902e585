package org.dsload.cassandra;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.JMeterRuntime;

/** Builds Cassandra elements the way a plan would, and runs them in the calling thread. */
final class CassandraFixture {
    private CassandraFixture() {
    }

    static CassandraConnection session(String contactPoints) {
        JMeterRuntime.init();
        CassandraConnection s = new CassandraConnection();
        s.setName("cassandra");
        s.setVariableName("cassandra");
        s.setContactPoints(contactPoints);
        // Schema metadata is not needed by the elements; without it a session starts about a second sooner.
        s.setDriverOptions("advanced.metadata.schema.enabled = false");
        return s;
    }

    /** Started settings of the cassandra YCSB binding, published as {@code ycsb_cassandra}. */
    static CassandraYcsbSettings ycsbSettings(String keyspace, String consistency, boolean createSchema) {
        CassandraYcsbSettings settings = new CassandraYcsbSettings();
        settings.setCreateSchema(Boolean.toString(createSchema));
        settings.setName("ycsb cassandra");
        settings.setVariableName("ycsb_cassandra");
        settings.setKeyspace(keyspace);
        settings.setReadConsistency(consistency);
        settings.setWriteConsistency(consistency);
        settings.testStarted();
        return settings;
    }

    static CassandraSampler sampler(String statement, String bindValues) {
        JMeterRuntime.init();
        CassandraSampler s = new CassandraSampler();
        s.setName("cql");
        s.setSession("cassandra");
        s.setStatement(statement);
        s.setBindValues(bindValues);
        return s;
    }

    static SampleResult run(String statement, String bindValues) {
        return sampler(statement, bindValues).sample(null);
    }

    /**
     * Inserts a row of {@code kv (id int, v text)} and reads it back, again and again for
     * {@code millis}, each sample required to succeed.
     *
     * @return how many rows were inserted and read: as many writes and as many reads
     */
    static long insertAndReadFor(long millis) {
        CassandraSampler insert = sampler("INSERT INTO kv (id, v) VALUES (?, ?)", "int #{seq}\ntext v");
        CassandraSampler read = sampler("SELECT v FROM kv WHERE id = ?", "int #{seq}");
        long rows = 0;
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            for (CassandraSampler s : new CassandraSampler[] {insert, read}) {
                SampleResult r = s.sample(null);
                if (!r.isSuccessful()) {
                    throw new AssertionError(r.getResponseCode() + " " + r.getResponseMessage());
                }
            }
            rows++;
        }
        return rows;
    }

    static String text(SampleResult r) {
        return r.getResponseDataAsString();
    }
}
