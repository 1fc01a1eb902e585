package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.TimingValue;
import org.dsload.redis.RedisConnection;
import org.dsload.redis.RedisSampler;
import org.dsload.report.ExactHistogram;
import org.dsload.report.LabelStats;
import org.dsload.report.Summary;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import redis.clients.jedis.Jedis;

/**
 * The same load recorded both ways: the dsload Redis sampler GETs from a real redis-server in
 * histograms mode, and each sample's exact microseconds (its dsload_timing value, what its row
 * would have held) are kept beside; the percentiles the summary reads from the interval logs agree
 * with the exact ones within HdrHistogram's stated precision, and the counts with the server's.
 */
class HistogramsAgreeWithRowsIT {

    @AfterEach
    void endTest() {
        RecordingHarness.reset();
    }

    @Test
    void percentilesFromTheLogsMatchTheExactOnesOfTheSameSamplesAndCountsMatchTheServer(@TempDir Path dir)
            throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                for (int i = 0; i < 1000; i++) {
                    jedis.set("1:" + i, "v".repeat(100 + i));
                }
            }
            RedisCalls.reset(redis);
            RecordingHarness harness = new RecordingHarness(dir, "histograms");
            RedisConnection connection = new RedisConnection();
            connection.setName("redis");
            connection.setVariableName("redis");
            connection.setHosts(redis.address());
            JMeterRuntime.freshVariables();
            connection.testStarted();
            assertTrue(Recording.histograms(), "the connection's test start started the recording");
            Object client = JMeterContextService.getContext().getVariables().getObject("redis");
            ExactHistogram exact = new ExactHistogram();
            List<Thread> threads = new ArrayList<>();
            long until = System.currentTimeMillis() + 3_500;
            for (int t = 0; t < 4; t++) {
                threads.add(new Thread(() -> {
                    harness.enterSamplerThread();
                    JMeterContextService.getContext().getVariables().putObject("redis", client);
                    RedisSampler get = new RedisSampler();
                    get.setName("GET profile");
                    get.setConnection("redis");
                    get.setCommand("GET");
                    get.setKeys("1:#{seq:1000}");
                    get.setArguments("");
                    while (System.currentTimeMillis() < until) {
                        SampleResult r = get.sample(null);
                        assertTrue(r.isSuccessful(), r.getResponseMessage());
                        assertTrue(r.isIgnore(), "recorded, not a row");
                        String timing = JMeterContextService.getContext().getVariables().get(JtlColumns.TIMING);
                        TimingValue value = TimingValue.parse(timing, r.getStartTime(), r.getTime());
                        synchronized (exact) {
                            exact.record(value.elapsedMicros());
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            connection.testEnded();
            assertFalse(Recording.histograms(), "the connection's test end ended the recording");

            LabelStats get = Summary.of(harness.writeResultsFile()).label("GET profile");
            assertEquals(RedisCalls.of(redis, "GET"), get.requests(), "every GET the server answered");
            assertEquals(exact.count(), get.requests());
            assertFalse(get.latencies().exact());
            for (double p : new double[] {50, 90, 95, 99, 99.9, 100}) {
                long want = exact.percentile(p);
                long got = get.latencies().percentile(p);
                assertTrue(got >= want && got - want <= want / 1000,
                        "p" + p + ": from the logs " + got + " µs, exact " + want + " µs");
            }
            long bytes = harness.listener.events.stream().mapToLong(e -> e.getResult().getBytesAsLong()).sum();
            assertEquals(bytes, get.bytesIn(), "the aggregate rows carry the bytes the logs count");
        }
    }
}
