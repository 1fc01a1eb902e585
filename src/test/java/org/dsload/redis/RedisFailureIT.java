package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.Results;
import org.dsload.process.Ports;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees when the server is down, slow, full, or the settings are wrong. */
@Timeout(120)
class RedisFailureIT {

    @Test
    void serverStoppedMidTestGivesFailedSamplesWithinTheTimeoutThenRecovers() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setSocketTimeout("1000");
            c.setConnectTimeout("1000");
            c.testStarted();
            try {
                RedisSampler ping = sampler("PING", "", "");
                assertTrue(ping.sample(null).isSuccessful());

                redis.stop();
                for (int i = 0; i < 3; i++) {
                    SampleResult down = ping.sample(null);
                    assertFalse(down.isSuccessful());
                    assertEquals("JedisConnectionException", down.getResponseCode());
                    assertTrue(down.getResponseMessage().contains(redis.address()), down.getResponseMessage());
                    assertTrue(down.getTime() < 1500, "failed within the timeouts, took " + down.getTime() + " ms");
                }

                redis.restart();
                SampleResult back = ping.sample(null);
                assertTrue(back.isSuccessful(), "recovers when the server is back: " + back.getResponseMessage());
            } finally {
                c.testEnded();
            }
        }
    }

    @Test
    void frozenServerFailsSamplesAtTheSocketTimeout() {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setSocketTimeout("700");
            c.testStarted();
            RedisSampler ping = sampler("PING", "", "");
            try {
                assertTrue(ping.sample(null).isSuccessful());
                redis.pause();
                SampleResult r = ping.sample(null);
                assertFalse(r.isSuccessful());
                assertTrue(r.getResponseMessage().startsWith("no reply from " + redis.address()
                        + " within the socket timeout of 700 ms"), r.getResponseMessage());
                assertTrue(r.getTime() >= 650 && r.getTime() < 2000, "took " + r.getTime() + " ms");
            } finally {
                redis.resume();
                c.testEnded();
            }
        }
    }

    @Test
    void exhaustedPoolWithoutBlockingFailsAtOnceWithPoolExhausted() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterVariables variables = JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setMaxTotal("1");
            c.setMaxIdle("1");
            c.setBlockWhenExhausted("false");
            c.setSocketTimeout("5000");
            c.testStarted();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<SampleResult> slow = pool.submit(() -> {
                    JMeterRuntime.adopt(variables, 1);
                    return sampler("DEBUG", "", "SLEEP 2").sample(null);
                });
                // the pool's one connection is taken once the server sleeps
                assertTrue(RedisCalls.awaitBusy(redis, Duration.ofSeconds(10)), "the DEBUG SLEEP never began");
                SampleResult r = sampler("PING", "", "").sample(null);
                assertFalse(r.isSuccessful());
                assertEquals(RedisErrors.POOL_EXHAUSTED, r.getResponseCode());
                assertTrue(r.getResponseMessage().contains("Max total 1"), r.getResponseMessage());
                assertTrue(r.getTime() < 200, "fails at once, took " + r.getTime());
                assertTrue(slow.get(10, TimeUnit.SECONDS).isSuccessful());
            } finally {
                pool.shutdownNow();
                c.testEnded();
            }
        }
    }

    @Test
    void manyThreadsShareOneConnectionElement() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterVariables variables = JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.testStarted();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 1; t <= 8; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        JMeterRuntime.adopt(variables, thread - 1);
                        RedisSampler incr = sampler("INCR", "shared", "");
                        int ok = 0;
                        for (int i = 0; i < 250; i++) {
                            ok += incr.sample(null).isSuccessful() ? 1 : 0;
                        }
                        return ok;
                    }));
                }
                int ok = 0;
                for (Future<Integer> f : done) {
                    ok += f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(2000, ok);
                assertEquals("(integer) 2000", sampler("GET", "shared", "").sample(null).getResponseDataAsString()
                        .replace("\"", "").replaceFirst("^", "(integer) "));
            } finally {
                pool.shutdownNow();
                c.testEnded();
            }
        }
    }

    @Test
    void malformedFieldIsReportedAtStartNamingTheFieldAndStopsTheTest() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:6379");
        c.setSocketTimeout("2 seconds");
        c.testStarted();
        SampleResult r = sampler("GET", "k", "").sample(null);
        c.testEnded();
        assertFalse(r.isSuccessful());
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertEquals("dsload Redis Connection 'redis': field 'Socket timeout (ms)' must be a whole number of at least 1, "
                + "got '2 seconds'", r.getResponseMessage());
        assertTrue(r.isStopTest(), "the test stops instead of repeating the failure");
    }

    @Test
    void badPortIsReportedAtStartNamingTheField() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:99999");
        c.testStarted();
        SampleResult r = sampler("GET", "k", "").sample(null);
        c.testEnded();
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("field 'Hosts' has port 99999"), r.getResponseMessage());
    }

    @Test
    void unreachableServerIsReportedAtStartNamingTheAddress() {
        int closed = Ports.free();
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:" + closed);
        c.testStarted();
        SampleResult r = sampler("GET", "k", "").sample(null);
        c.testEnded();
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("cannot reach 127.0.0.1:" + closed), r.getResponseMessage());
        assertTrue(r.getResponseMessage().contains("Connection refused"), r.getResponseMessage());
    }

    @Test
    void withoutTheStartCheckAnUnreachableServerGivesFailedSamples() {
        int closed = Ports.free();
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:" + closed);
        c.setCheckOnStart("false");
        c.testStarted();
        SampleResult r = sampler("GET", "k", "").sample(null);
        c.testEnded();
        assertFalse(r.isSuccessful());
        assertEquals("JedisConnectionException", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("127.0.0.1:" + closed), r.getResponseMessage());
    }

    @Test
    void aPipelineThatCannotReachTheServerIsAsManyErrorsAsItHasCommands() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:" + Ports.free());
        c.setCheckOnStart("false");
        c.testStarted();
        RedisSampler get = sampler("GET", "k:#{i}", "");
        get.setPipeline("20");
        SampleResult r = get.sample(null);
        c.testEnded();
        assertFalse(r.isSuccessful());
        assertEquals("JedisConnectionException", r.getResponseCode());
        assertEquals(20, r.getSampleCount());
        assertEquals(20, r.getErrorCount(), "20 requests failed, not 1 in 20 on JMeter's console and dashboard");
    }

    @Test
    void samplerWithoutAConnectionElementSaysWhatToAdd() {
        JMeterRuntime.freshVariables();
        RedisSampler s = sampler("GET", "k", "");
        s.setConnection("cache");
        SampleResult r = s.sample(null);
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("No dsload Redis Connection named 'cache'"), r.getResponseMessage());
    }

    @Test
    void passwordsWorkFromAFileAndNeverShowInResults(@TempDir Path dir) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", Ports.free(), List.of("--requirepass", "s3cret-pw"))) {
            JMeterRuntime.freshVariables();
            RedisConnection wrong = connection(redis.address());
            wrong.setPassword("not-it");
            wrong.testStarted();
            SampleResult refused = sampler("PING", "", "").sample(null);
            wrong.testEnded();
            assertEquals(Results.CONFIG_ERROR, refused.getResponseCode());
            assertTrue(refused.getResponseMessage().contains("WRONGPASS")
                    || refused.getResponseMessage().contains("invalid password"), refused.getResponseMessage());
            assertFalse(refused.getResponseMessage().contains("not-it"));

            Path file = dir.resolve("redis.pw");
            Files.writeString(file, "s3cret-pw\n");
            JMeterRuntime.freshVariables();
            RedisConnection right = connection(redis.address());
            right.setPassword("file:" + file);
            right.testStarted();
            SampleResult ok = sampler("PING", "", "").sample(null);
            SampleResult auth = sampler("AUTH", "", "s3cret-pw").sample(null);
            right.testEnded();
            assertTrue(ok.isSuccessful(), ok.getResponseMessage());
            assertFalse(auth.getSamplerData().contains("s3cret"), auth.getSamplerData());
        }
    }
}
