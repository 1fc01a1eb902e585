package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.describe;
import static org.dsload.kairosdb.KairosDbFixture.eventually;
import static org.dsload.kairosdb.KairosDbFixture.query;
import static org.dsload.kairosdb.KairosDbFixture.template;
import static org.dsload.kairosdb.KairosDbFixture.text;
import static org.dsload.kairosdb.KairosDbFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.format.RunProperties;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Write and query samplers against a real KairosDB on H2: exact counts, tags, aggregators, KairosDB's errors. */
@ExtendWith(SharedKairosDb.class)
class KairosDbSamplerIT {
    private static EmbeddedKairosDb kairos;
    private KairosDbConnection connection;

    @BeforeAll
    static void shared() {
        kairos = SharedKairosDb.server();
    }

    @BeforeEach
    void connect() {
        JMeterRuntime.freshVariables();
        JMeterContextService.getContext().setThreadNum(0);
        connection = connection(kairos.url());
        connection.testStarted();
    }

    @AfterEach
    void disconnect() {
        if (connection != null) {
            connection.testEnded();
        }
    }

    private static String unique(String name) {
        return "it." + name + "." + Long.toString(System.nanoTime(), 36);
    }

    private static long sampleSize(SampleResult r) {
        Matcher m = Pattern.compile("sample_size (\\d+)").matcher(r.getResponseMessage());
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    @Test
    void writtenBatchesAreQueriedBackWithExactPointCounts() throws Exception {
        String prefix = unique("roundtrip");
        KairosDbWriteSampler write = writer(prefix, 25, 50, 4);
        write.setTimestamps("simulated");
        write.setInterval("1");
        for (int i = 0; i < 10; i++) {
            SampleResult r = write.sample(null);
            assertTrue(r.isSuccessful(), describe(r));
            assertEquals("204", r.getResponseCode());
            assertEquals(100, r.getSampleCount(), "25 metrics x 4 points");
            assertTrue(r.getSentBytes() > 25 * 4 * 10, "bytes sent " + r.getSentBytes());
            assertTrue(r.getBytesAsLong() > 0, "response headers counted");
        }
        KairosDbQuerySampler query = query(prefix + ".#{m}", 50);
        long returned = eventually(1000, () -> sampleSize(query.sample(null)));
        assertEquals(1000, returned);
        SampleResult last = query.sample(null);
        assertTrue(last.isSuccessful(), describe(last));
        assertTrue(last.getResponseMessage().contains("results 50"), describe(last));

        query.setMetricsPerQuery("10");
        assertEquals(200, sampleSize(query.sample(null)), "10 of 50 metrics, 20 points each");
        connection.testEnded();
        CrossCheck.Result counted = connection.lastCrossCheck();
        connection = null;
        assertEquals(1000, counted.reported());
        assertEquals(1000, counted.found(), counted.note());
    }

    @Test
    void tagFiltersGroupByAndAggregatorsAnswerWhatKairosDbComputes() throws Exception {
        String metric = unique("tags");
        long t = System.currentTimeMillis() - 120_000;
        String body = String.format(Locale.ROOT, "[{\"name\":\"%1$s\",\"tags\":{\"host\":\"a\",\"dc\":\"x\"},"
                + "\"datapoints\":[[%2$d,1],[%3$d,2],[%4$d,3]]},"
                + "{\"name\":\"%1$s\",\"tags\":{\"host\":\"b\",\"dc\":\"x\"},\"datapoints\":[[%2$d,10],[%3$d,20]]}]",
                metric, t, t + 1000, t + 2000);
        SampleResult w = template(body).sample(null);
        assertTrue(w.isSuccessful(), describe(w));
        assertEquals(5, w.getSampleCount());

        KairosDbQuerySampler q = query(metric, 1);
        q.setStart("10 minutes");
        assertEquals(5, eventually(5, () -> sampleSize(q.sample(null))));

        q.setTags("host=a");
        q.setAggregator("sum");
        q.setSampling("1 hours");
        SampleResult sum = q.sample(null);
        assertTrue(sum.isSuccessful(), describe(sum));
        assertTrue(text(sum).matches("(?s).*\"values\":\\[\\[\\d+,6(\\.0)?]].*"), text(sum));

        q.setTags("host=a|b, dc=x");
        q.setAggregator("max");
        SampleResult max = q.sample(null);
        assertTrue(text(max).matches("(?s).*\"values\":\\[\\[\\d+,20(\\.0)?]].*"), text(max));

        q.setGroupBy("host");
        q.setAggregator("count");
        SampleResult grouped = q.sample(null);
        assertTrue(grouped.getResponseMessage().contains("results 2"), describe(grouped));
        assertTrue(text(grouped).contains("\"host\":[\"a\"]") && text(grouped).contains("\"host\":[\"b\"]"),
                text(grouped));

        q.setTags("host=nowhere");
        q.setGroupBy("");
        SampleResult none = q.sample(null);
        assertTrue(none.isSuccessful(), describe(none));
        assertEquals(0, sampleSize(none));
    }

    @Test
    void severalUrlsAreTakenInTurn() throws Exception {
        String other = kairos.url().replace("127.0.0.1", "localhost");
        KairosDbConnection two = connection(kairos.url() + ", " + other);
        two.setVariableName("two");
        two.testStarted();
        try {
            KairosDbClient client = org.dsload.core.SharedClients.lookup("two", KairosDbClient.class, "connection");
            List<String> nodes = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                nodes.add(client.get(KairosDbPaths.VERSION, KairosDbReplies.text(100)).node().getHost());
            }
            assertEquals(List.of("127.0.0.1", "localhost", "127.0.0.1", "localhost"), nodes);
        } finally {
            two.testEnded();
        }
    }

    @Test
    void refusedBodiesAreFailedSamplesWithKairosDbsMessage() {
        SampleResult badName = template("[{\"name\":\"\",\"tags\":{\"h\":\"a\"},\"datapoints\":[[1700000000000,1]]}]")
                .sample(null);
        assertFalse(badName.isSuccessful());
        assertEquals("400", badName.getResponseCode());
        assertTrue(badName.getResponseMessage().contains("name"), describe(badName));
        assertTrue(badName.getSamplerData().contains("\"name\":\"\""), badName.getSamplerData());

        SampleResult malformed = template("[{\"name\":\"it.malformed\",\"tags\":{\"h\":\"a\"},\"datapoints\":[[1,")
                .sample(null);
        assertFalse(malformed.isSuccessful());
        assertEquals("400", malformed.getResponseCode());
        assertTrue(malformed.getResponseMessage().contains("End of input"), describe(malformed));

        SampleResult noMetrics = template("[]").sample(null);
        assertFalse(noMetrics.isSuccessful(), describe(noMetrics));
        assertEquals(KairosDbWriteSampler.EMPTY, noMetrics.getResponseCode());

        SampleResult noPoints = template("[{\"name\":\"it.empty\",\"tags\":{\"h\":\"a\"},\"datapoints\":[]}]")
                .sample(null);
        System.out.println("no points: " + describe(noPoints));
        assertFalse(noPoints.isSuccessful(), describe(noPoints));

        KairosDbQuerySampler q = query("it.any", 1);
        q.setQuery("{\"start_relative\":{\"value\":1,\"unit\":\"hours\"},\"metrics\":[{\"name\":\"it.any\","
                + "\"aggregators\":[{\"name\":\"no_such_aggregator\"}]}]}");
        SampleResult badQuery = q.sample(null);
        assertFalse(badQuery.isSuccessful());
        assertEquals("400", badQuery.getResponseCode());
        System.out.println("bad query: " + describe(badQuery));
        assertTrue(badQuery.getResponseMessage().contains("no_such_aggregator"), describe(badQuery));
    }

    @Test
    void aFailedBatchCountsEveryPointItCarriedAsAnError() {
        SampleResult refused = template("[{\"name\":\"\",\"tags\":{\"h\":\"a\"},\"datapoints\":[[1700000000000,1],"
                + "[1700000001000,2],[1700000002000,3]]},{\"name\":\"it.fine\",\"tags\":{\"h\":\"a\"},"
                + "\"datapoints\":[[1700000000000,1]]}]").sample(null);
        assertFalse(refused.isSuccessful(), describe(refused));
        assertEquals(4, refused.getSampleCount(), "the batch's points");
        assertEquals(4, refused.getErrorCount(), "all of them failed, not one");

        SampleResult written = writer(unique("errors"), 25, 100, 1).sample(null);
        assertTrue(written.isSuccessful(), describe(written));
        assertEquals(25, written.getSampleCount());
        assertEquals(0, written.getErrorCount());
    }

    @Test
    void anAnswerWithoutPointsFailsWhenEmptyAnswerIsAFailureIsOn() {
        KairosDbQuerySampler q = query(unique("never.written"), 1);
        SampleResult answered = q.sample(null);
        assertTrue(answered.isSuccessful(), "off by default: KairosDB answered " + describe(answered));
        assertEquals(0, sampleSize(answered));

        q.setEmptyIsFailure("true");
        SampleResult empty = q.sample(null);
        assertFalse(empty.isSuccessful(), describe(empty));
        assertEquals(KairosDbQuerySampler.NO_DATA, empty.getResponseCode());
        assertTrue(empty.getResponseMessage().contains("sample_size 0"), describe(empty));
    }

    @Test
    void aCrossCheckThatCannotCountFailsTheRunAndStatesNoCapacity() throws Exception {
        java.nio.file.Path runDir = java.nio.file.Files.createDirectories(org.dsload.targets.Checkout.target()
                .resolve("test-results/kairos-verdict-" + System.nanoTime()));
        org.apache.jmeter.util.JMeterUtils.setProperty(org.dsload.core.format.RunProperties.RUN_DIR, runDir.toString());
        connection.testEnded();
        connection = connection(kairos.url());
        connection.setResponseTimeout("1000");
        connection.setCrossCheckWait("2");
        connection.testStarted();
        try {
            KairosDbWriteSampler write = writer(unique("unverified"), 25, 100, 1);
            for (int i = 0; i < 4; i++) {
                assertTrue(write.sample(null).isSuccessful());
            }
            // KairosDB acknowledged 100 points; now it answers nothing, so they cannot be counted back
            kairos.pause();
            try {
                connection.testEnded();
            } finally {
                kairos.resume();
            }
            CrossCheck.Result counted = connection.lastCrossCheck();
            connection = null;
            assertEquals(org.dsload.kairosdb.report.CapacityRecord.Check.UNREACHABLE, counted.check(), counted.note());
            // the wait of 2 s bounds the count's tries (each try's timeout is what is left of it)
            assertTrue(counted.waitedMillis() < 8_000, counted.toString());
            // a failure of the run unless the results show the store down for good (RunJudgeTest)
            List<String> verdict = org.dsload.core.format.RunVerdict.uncounted(runDir);
            assertEquals(1, verdict.size(), verdict.toString());
            assertTrue(verdict.get(0).contains("the cross-check failed: 100 points reported written could not be "
                    + "counted back"), verdict.get(0));
        } finally {
            org.apache.jmeter.util.JMeterUtils.getJMeterProperties().remove(org.dsload.core.format.RunProperties.RUN_DIR);
        }
    }

    @Test
    void aCrossCheckThatFindsFewerPointsThanWrittenFailsTheRun() throws Exception {
        String metric = unique("overwritten");
        long t = System.currentTimeMillis() - 60_000;
        // two points of one series at one time stamp: KairosDB keeps one, dsload wrote two
        SampleResult w = template(String.format(Locale.ROOT, "[{\"name\":\"%s\",\"tags\":{\"h\":\"a\"},"
                + "\"datapoints\":[[%d,1],[%d,2],[%d,3]]}]", metric, t, t, t + 1000)).sample(null);
        assertTrue(w.isSuccessful(), describe(w));
        connection.testEnded();
        CrossCheck.Result counted = connection.lastCrossCheck();
        connection = null;
        assertEquals(3, counted.reported());
        assertEquals(2, counted.found(), counted.note());
        assertEquals(org.dsload.kairosdb.report.CapacityRecord.Check.DIFFERS, counted.check());
    }
}
