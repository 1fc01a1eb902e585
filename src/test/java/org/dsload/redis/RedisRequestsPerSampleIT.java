package org.dsload.redis;

import static org.dsload.redis.RedisFixture.DEBUG;
import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.loaded;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.BlockingBatch;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.BatchTiming;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;
import org.dsload.testing.SamplerThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/** Redis Command with several blocking requests per sample, against a real redis-server. */
@Timeout(120)
class RedisRequestsPerSampleIT {

    private static RedisSampler get(String keys, int perSample) {
        RedisSampler s = sampler("GET", keys, "");
        s.setRequestsPerSample(Integer.toString(perSample));
        s.setResponseDataLimit("0");
        return s;
    }

    @Test
    void everyRequestCountsOnceWithItsOwnTimingAsTheServerCountsThem() {
        try (EmbeddedRedis redis = loaded(1000); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            RedisSampler get = get("key:#{seq:1000}", 50);
            for (int i = 0; i < 20; i++) {
                run.sample(get);
            }
            List<Completion> requests = run.requests();
            assertEquals(1000, requests.size());
            assertEquals(20, run.rows.size(), "one row per sample: every reply of one kind");
            assertTrue(run.rows.stream().allMatch(r -> r.getSampleCount() == 50 && r.getErrorCount() == 0));
            assertEquals(1000, RedisCalls.of(redis, "GET"), "the server answered exactly the requests reported");
            assertTrue(requests.stream().allMatch(r -> r.outcome().success() && r.count() == 1
                    && r.outcome().receivedBytes() == 6 + 100 + 2 && r.elapsedMicros() >= 0));
            for (int i = 1; i < requests.size(); i++) {
                assertTrue(requests.get(i).sendNanos() >= requests.get(i - 1).endNanos(),
                        "one after the other: each sent after the previous reply");
            }
            RequestsResult last = run.rows.get(run.rows.size() - 1);
            String timing = (String) JMeterContextService.getContext().getVariables().get(SampleTiming.VARIABLE);
            assertEquals(50, BatchTiming.parse(timing, last.getStartTime(), last.getTime()).size(),
                    "the row's timing value carries each of its requests");
            assertEquals(50L * (4 + 9 + 13), last.getSentBytes(), "*2, $3 GET, $7 key:9nn: each command counted");
        }
    }

    @Test
    void aReplyOfAnotherKindStartsANewRowAndNoRequestIsLost() {
        try (EmbeddedRedis redis = loaded(10); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            RedisSampler get = get("key:#{seq:20}", 20);
            get.setNilIsFailure("false");
            SampleResult returned = run.sample(get);
            assertEquals("NIL", returned.getResponseCode(), "the sample returns the last row: key:10 ... key:19");
            assertEquals(10, returned.getSampleCount());
            assertEquals(1, run.atThreadEnd.size(), "the earlier row went straight to the listeners");
            RequestsResult earlier = run.atThreadEnd.get(0);
            assertEquals("OK", earlier.getResponseCode());
            assertEquals(10, earlier.getSampleCount());
            assertEquals(20, RedisCalls.of(redis, "GET"));
            assertEquals(20, run.requests().size());
        }
    }

    @Test
    void aFailedRequestEndsItsSample() {
        try (EmbeddedRedis redis = loaded(10); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                jedis.del("key:3");
                jedis.hset("key:3", "f", "v");
            }
            RedisCalls.reset(redis);
            RedisSampler get = get("key:#{seq:10}", 6);
            SampleResult failed = run.sample(get);
            assertFalse(failed.isSuccessful());
            assertEquals("WRONGTYPE", failed.getResponseCode());
            assertEquals(1, failed.getSampleCount());
            assertEquals(1, failed.getErrorCount());
            assertTrue(failed.getSamplerData().startsWith("GET key:3"), failed.getSamplerData());
            assertEquals(3, run.atThreadEnd.get(0).getSampleCount(), "key:0 ... key:2 in the row before");
            assertEquals(4, RedisCalls.of(redis, "GET"), "nothing sent after the failure in that sample");
            SampleResult next = run.sample(get);
            assertEquals("OK", next.getResponseCode(), "the next sample goes on with key:4");
            assertEquals(6, next.getSampleCount());
        }
    }

    @Test
    void aStallShowsInTheOneRequestOutstandingDuringIt() throws Exception {
        try (EmbeddedRedis redis = loaded(1000); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            long[] stall = new long[2];
            Thread staller = new Thread(() -> {
                try (Jedis jedis = new Jedis(redis.host(), redis.port(), 5000)) {
                    RedisCalls.await(redis, "GET", 100, Duration.ofSeconds(30));
                    stall[0] = System.nanoTime();
                    jedis.sendCommand(DEBUG, "SLEEP", "0.4");
                    stall[1] = System.nanoTime();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            RedisSampler get = get("key:#{seq:1000}", 1_000_000);
            staller.start();
            run.loopUntil(get, () -> !staller.isAlive() && stall[1] != 0 && run.sentAfter(stall[1]) > 150,
                    Duration.ofSeconds(60));
            staller.join();
            // a request outstanding while the server slept; a request slowed elsewhere (a pause of this busy
            // machine held one 300 ms once) is not one of them
            List<Completion> slow = run.requests().stream().filter(r -> r.elapsedMicros() >= 300_000).toList();
            List<Completion> stalled = slow.stream().filter(r -> r.sendNanos() < stall[1] && r.endNanos() > stall[0])
                    .toList();
            assertEquals(1, stalled.size(), "one thread, one request outstanding during the 400 ms sleep; requests of "
                    + "300 ms or more, sent ms after the sleep began: " + slow.stream().map(r -> r.elapsedMicros() / 1000
                    + " ms at " + (r.sendNanos() - stall[0]) / 1_000_000).toList());
            assertTrue(stalled.get(0).sendNanos() < stall[1] && stalled.get(0).endNanos() > stall[0] + 300_000_000L);
            long after = run.requests().stream().filter(r -> r.sendNanos() > stall[1]).count();
            assertTrue(after > 100, "the load went on after the sleep: " + after);
        }
    }

    @Test
    void aSampleEndsAfterAtMostOneSecondHoweverManyRequestsItMaySend() {
        try (EmbeddedRedis redis = loaded(1000); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            RequestsResult row = (RequestsResult) run.sample(get("key:#{seq:1000}", 1_000_000));
            List<Completion> requests = row.requests();
            long spanNanos = requests.get(requests.size() - 1).sendNanos() - requests.get(0).sendNanos();
            assertTrue(spanNanos < BlockingBatch.MAX_MILLIS * 1_000_000L,
                    "no request sent after the sample's second: " + spanNanos / 1_000_000 + " ms");
            assertTrue(requests.size() < 1_000_000);
            assertEquals(requests.size(), RedisCalls.of(redis, "GET"));
        }
    }

    @Test
    void aStoppingTestSendsNothingMoreInTheSampleUnderWay() throws Exception {
        try (EmbeddedRedis redis = loaded(1000); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            RedisSampler get = get("key:#{seq:1000}", 1_000_000);
            long[] stopped = new long[1];
            Thread stopper = new Thread(() -> {
                try {
                    RedisCalls.await(redis, "GET", 20, Duration.ofSeconds(30)); // the sample is under way
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stopped[0] = System.nanoTime();
                get.interrupt();
            });
            stopper.start();
            RequestsResult row = (RequestsResult) run.sample(get);
            stopper.join();
            long sentAfter = row.requests().stream().filter(r -> r.sendNanos() > stopped[0]).count();
            assertTrue(sentAfter <= 2, "at most a request already on its way when the stop came: " + sentAfter);
            assertTrue(row.requests().size() > 10);
            assertEquals(row.requests().size(), RedisCalls.of(redis, "GET"), "every request sent is reported");
        }
    }

    @Test
    void fieldsThatCannotGoTogetherAreRefusedNamingThem() {
        try (EmbeddedRedis redis = loaded(10); SamplerThread run = new SamplerThread(connection(redis.address()))) {
            RedisSampler piped = get("key:#{seq:10}", 5);
            piped.setPipeline("3");
            SampleResult r = run.sample(piped);
            assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
            assertTrue(r.getResponseMessage().contains("Requests per sample")
                    && r.getResponseMessage().contains("pipeline depth of 3"),
                    r.getResponseMessage());
            assertTrue(r.isStopTest());

            RedisSampler inFlight = get("key:#{seq:10}", 5);
            inFlight.setInFlight("4");
            r = run.sample(inFlight);
            assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
            assertTrue(r.getResponseMessage().contains("In flight"), r.getResponseMessage());

            RedisSampler scheduled = get("key:#{seq:10}", 5);
            IntendedStart.offer(scheduled, SamplerThread.arrivals(5));
            r = run.sample(scheduled);
            assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
            assertTrue(r.getResponseMessage().contains("arrival schedule"), r.getResponseMessage());
            assertEquals(0, RedisCalls.of(redis, "GET"), "nothing was sent");
        }
    }
}
