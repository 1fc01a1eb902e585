package org.dsload.cassandra;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.JMeterRuntime;

/** Builds Cassandra elements the way a plan would, and runs them in the calling thread. */
final class CqlFixture {
    private CqlFixture() {
    }

    static CassandraSession session(String contactPoints) {
        JMeterRuntime.init();
        CassandraSession s = new CassandraSession();
        s.setName("cassandra");
        s.setVariableName("cassandra");
        s.setContactPoints(contactPoints);
        // Schema metadata is not needed by the elements; without it a session starts about a second sooner.
        s.setDriverOptions("advanced.metadata.schema.enabled = false");
        return s;
    }

    static CqlSampler sampler(String statement, String bindValues) {
        JMeterRuntime.init();
        CqlSampler s = new CqlSampler();
        s.setName("cql");
        s.setSession("cassandra");
        s.setStatement(statement);
        s.setBindValues(bindValues);
        return s;
    }

    static SampleResult run(String statement, String bindValues) {
        return sampler(statement, bindValues).sample(null);
    }

    static String text(SampleResult r) {
        return r.getResponseDataAsString();
    }
}
