package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.describe;
import static org.dsload.kairosdb.KairosDbFixture.eventually;
import static org.dsload.kairosdb.KairosDbFixture.query;
import static org.dsload.kairosdb.KairosDbFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedCassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** S1's deployment: KairosDB on the Cassandra datastore, written and queried back exactly. */
@ExtendWith(SharedCassandra.class)
class KairosDbCassandraIT {

    @Test
    void writesThroughKairosDbLandInCassandraAndAreQueriedBack() throws Exception {
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.startOnCassandra(SharedCassandra.node())) {
            System.out.printf("dsload: KairosDB on Cassandra ready in %.1f s%n", kairos.startTime().toMillis() / 1000.0);
            assertEquals("cassandra", kairos.datastore());
            JMeterRuntime.freshVariables();
            JMeterContextService.getContext().setThreadNum(0);
            KairosDbConnection connection = connection(kairos.url());
            connection.setGzip("true");
            connection.testStarted();
            try {
                KairosDbWriteSampler write = writer("it.cassandra", 25, 100, 2);
                for (int i = 0; i < 8; i++) {
                    SampleResult r = write.sample(null);
                    assertTrue(r.isSuccessful(), describe(r));
                }
                KairosDbQuerySampler q = query("it.cassandra.#{m}", 100);
                q.setAggregator("count");
                q.setSampling("1 days");
                Pattern size = Pattern.compile("sample_size (\\d+)");
                // 8 requests x 25 metrics x 2 points; the count aggregator answers one value per series
                long raw = eventually(400, () -> {
                    q.setAggregator("none");
                    Matcher m = size.matcher(q.sample(null).getResponseMessage());
                    return m.find() ? Long.parseLong(m.group(1)) : -1;
                });
                assertEquals(400, raw);
            } finally {
                connection.testEnded();
            }
            CrossCheck.Result counted = connection.lastCrossCheck();
            assertEquals(400, counted.reported());
            assertEquals(400, counted.found(), counted.note());
        }
    }
}
