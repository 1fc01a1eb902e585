package org.dsload.redis;

import static org.dsload.redis.RedisFixture.DEBUG;
import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.loaded;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.SharedClients;
import org.dsload.core.format.BatchTiming;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.process.Ports;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.RedisCalls;
import org.dsload.testing.SamplerThread;
import org.dsload.testing.TimerDelays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/** Redis Command with requests in flight against a real redis-server. */
@Timeout(180)
class RedisInFlightIT {

    private static RedisSampler get(int inFlight) {
        RedisSampler s = sampler("GET", "key:#{seq:1000}", "");
        s.setInFlight(Integer.toString(inFlight));
        s.setResponseDataLimit("0");
        return s;
    }

    /**
     * Sends DEBUG SLEEP from a connection of its own once the run has taken that many samples;
     * remembers when the sleep began and ended.
     */
    private static Thread sleep(EmbeddedRedis redis, SamplerThread run, long afterSamples, String seconds,
            long[] when) {
        Thread thread = new Thread(() -> {
            try (Jedis jedis = new Jedis(redis.host(), redis.port(), 5000)) {
                run.awaitSamples(afterSamples, Duration.ofSeconds(30));
                when[0] = System.nanoTime();
                jedis.sendCommand(DEBUG, "SLEEP", seconds);
                when[1] = System.nanoTime();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        return thread;
    }

    @Test
    void everyRequestCountsOnceWithItsOwnTimingAsTheServerCountsThem() {
        try (EmbeddedRedis redis = loaded(1000)) {
            InFlightRuns run = new InFlightRuns(connection(redis.address()));
            int open;
            try (run) {
                run.drain(get(20), InFlightRuns.arrivals(3000));
                run.endThread();
                open = SharedClients.lookup("redis", RedisClient.class, "x").endpoint().openConnections().get();
            }
            List<Completion> requests = run.requests();
            assertEquals(3000, requests.size());
            assertEquals(3000, run.rows.stream().mapToInt(SampleResult::getSampleCount).sum(),
                    "each row counts the requests it stands for");
            assertEquals(3000, RedisCalls.of(redis, "GET"), "the server answered exactly the requests reported");
            assertTrue(requests.stream().allMatch(r -> r.outcome().success() && r.outcome().code().equals("OK")));
            assertTrue(requests.stream().allMatch(r -> r.elapsedMicros() > 0 && r.count() == 1));
            // each reply: $100\r\n, 100 bytes, \r\n
            assertTrue(requests.stream().allMatch(r -> r.outcome().receivedBytes() == 6 + 100 + 2));
            for (RequestsResult row : run.rows) {
                assertEquals(1, row.requests().stream().map(r -> r.outcome().code()).distinct().count());
            }
            RequestsResult last = run.rows.get(run.rows.size() - 1);
            String timing = (String) JMeterContextService.getContext().getVariables().get(SampleTiming.VARIABLE);
            assertEquals(last.getSampleCount(), BatchTiming.parse(timing, last.getStartTime(), last.getTime()).size(),
                    "the row's timing value carries each of its requests");
            assertTrue(run.atThreadEnd.isEmpty(), "nothing was outstanding at the end");
            assertEquals(0, open, "the thread's connections are closed at its end");
        }
    }

    @Test
    void aStallShowsInTheRequestsOutstandingDuringItAndInNoOthers() throws Exception {
        try (EmbeddedRedis redis = loaded(1000); InFlightRuns run = new InFlightRuns(connection(redis.address()))) {
            long[] stall = new long[2];
            Thread staller = sleep(redis, run, 20, "0.5", stall);
            run.loopUntil(get(10), () -> !staller.isAlive() && stall[1] != 0
                    && run.sentAfter(stall[1] + 50_000_000L) > 150, Duration.ofSeconds(60));
            staller.join();
            run.endThread();
            List<Completion> requests = run.requests().stream()
                    .filter(r -> !r.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
            List<Completion> stalled = requests.stream().filter(r -> r.elapsedMicros() >= 400_000).toList();
            assertFalse(stalled.isEmpty(), "the requests in flight during the 500 ms sleep show it");
            assertTrue(stalled.size() <= 10, "no more than the 10 in flight: " + stalled.size());
            assertTrue(stalled.stream().allMatch(r -> r.sendNanos() < stall[1] && r.endNanos() > stall[0] + 400_000_000L),
                    "each of them was outstanding during the sleep");
            List<Completion> after = requests.stream().filter(r -> r.sendNanos() > stall[1] + 50_000_000L).toList();
            assertTrue(after.size() > 100, "the load went on after the sleep: " + after.size());
            assertTrue(after.stream().noneMatch(r -> r.elapsedMicros() >= 400_000),
                    "requests sent after it do not carry the stall");
        }
    }

    @Test
    void aServerThatStopsAnsweringFailsEachRequestAtItsOwnTimeout() {
        try (EmbeddedRedis redis = loaded(1000)) {
            RedisConnection c = connection(redis.address());
            c.setSocketTimeout("300");
            InFlightRuns run = new InFlightRuns(c);
            try (run) {
                RedisSampler get = get(4);
                run.loop(get, Duration.ofMillis(200));
                redis.pause();
                try {
                    while (run.count(RedisErrors.TIMEOUT) < 12) {
                        run.sample(get);
                    }
                } finally {
                    redis.resume();
                }
                while (!run.sample(get).isSuccessful()) {
                    // the failures of requests sent while the server was frozen come first
                }
            }
            List<Completion> timedOut = run.requests().stream()
                    .filter(r -> r.outcome().code().equals(RedisErrors.TIMEOUT)).toList();
            assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() >= 300_000),
                    "each failed at its own 300 ms timeout, not before");
            assertTrue(timedOut.stream().allMatch(r -> r.outcome().message().startsWith("no reply from "
                    + redis.address() + " within the socket timeout of 300 ms")), timedOut.get(0).outcome().message());
            RequestsResult failedRow = run.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
            assertEquals(failedRow.getSampleCount(), failedRow.getErrorCount(), "a failed row counts each request as an error");
        }
    }

    @Test
    void requestsOutstandingWhenTheTestIsStoppedAreCancelledAndReportedNotLost() throws Exception {
        try (EmbeddedRedis redis = loaded(1000)) {
            InFlightRuns run = new InFlightRuns(connection(redis.address()));
            try (run) {
                run.loop(get(8), Duration.ofMillis(200));
                Thread sleeper = sleep(redis, run, 0, "1", new long[2]);
                assertTrue(RedisCalls.awaitBusy(redis, Duration.ofSeconds(10)), "the DEBUG SLEEP never began");
                run.stopTest();
                sleeper.join();
            }
            assertFalse(run.atThreadEnd.isEmpty(), "the thread's end reported rows");
            long cancelled = run.count(InFlightWindow.CANCELLED);
            assertEquals(8, cancelled, "the 8 outstanding during the sleep are cancelled");
            RequestsResult row = run.atThreadEnd.stream()
                    .filter(r -> r.getResponseCode().equals(InFlightWindow.CANCELLED)).findFirst().orElseThrow();
            assertEquals(row.getSampleCount(), row.getErrorCount());
            assertTrue(row.getResponseMessage().startsWith("cancelled"), row.getResponseMessage());
            long ok = run.count("OK");
            long served = RedisCalls.of(redis, "GET");
            assertTrue(served >= ok && served <= ok + cancelled,
                    "the server ran " + served + " GETs: the " + ok + " answered and at most the cancelled ones");
        }
    }

    @Test
    void aRefusedConnectionIsRetriedAfterABackOffAndEveryAttemptCounts() {
        int closed = Ports.free();
        RedisConnection c = connection("127.0.0.1:" + closed);
        c.setCheckOnStart("false");
        InFlightRuns run = new InFlightRuns(c);
        try (run) {
            run.loop(get(5), Duration.ofSeconds(2));
        }
        List<Completion> attempts = run.requests().stream()
                .filter(r -> !r.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
        assertTrue(attempts.stream().allMatch(r -> r.outcome().code().equals("ConnectException")),
                attempts.get(0).outcome().code());
        assertTrue(attempts.get(0).outcome().message().startsWith("cannot connect to 127.0.0.1:" + closed
                + ": Connection refused; this connection tries again in "), attempts.get(0).outcome().message());
        // 5 connections, 10 ms doubling to 1 s: about 8 attempts each in 2 s; without a pause, hundreds of thousands
        assertTrue(attempts.size() >= 10 && attempts.size() <= 100, "attempts in 2 s: " + attempts.size());
    }

    @Test
    void aConnectionNotMadeWithinTheConnectTimeoutFailsItsRequestAtThatTimeout() throws Exception {
        // a listener that never accepts, its queue full: further connections hang in the handshake
        try (ServerSocket stuck = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            List<Socket> queued = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Socket socket = new Socket();
                try {
                    socket.connect(new InetSocketAddress("127.0.0.1", stuck.getLocalPort()), 200);
                    queued.add(socket);
                } catch (java.io.IOException full) {
                    socket.close();
                }
            }
            RedisConnection c = connection("127.0.0.1:" + stuck.getLocalPort());
            c.setCheckOnStart("false");
            c.setConnectTimeout("300");
            InFlightRuns run = new InFlightRuns(c);
            try (run) {
                run.loop(get(2), Duration.ofMillis(1500));
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
            List<Completion> failed = run.requests().stream()
                    .filter(r -> r.outcome().code().equals("SocketTimeoutException")).toList();
            assertFalse(failed.isEmpty(), run.requests().get(0).outcome().code() + " " + run.requests().get(0).outcome().message());
            assertTrue(failed.get(0).outcome().message().startsWith("cannot connect to 127.0.0.1:" + stuck.getLocalPort()
                    + ": connect timed out after 300 ms"), failed.get(0).outcome().message());
            assertTrue(failed.stream().allMatch(r -> r.elapsedMicros() >= 300_000), "each waited the connect timeout");
        }
    }

    @Test
    void aRefusedConnectionIsRetriedAfterABackOffOnePerSampleWithoutRequestsInFlight() {
        int closed = Ports.free();
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:" + closed);
        c.setCheckOnStart("false");
        c.testStarted();
        RedisSampler get = sampler("GET", "k", "");
        int samples = 0;
        try {
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() - end < 0) {
                SampleResult r = get.sample(null);
                assertEquals("JedisConnectionException", r.getResponseCode());
                samples++;
            }
        } finally {
            c.testEnded();
        }
        assertTrue(samples >= 3 && samples <= 20, "attempts of one thread in 2 s: " + samples);
    }

    @Test
    void logsInWithUserAndPasswordSelectsTheDatabaseAndNamesTheClient() {
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", Ports.free(), List.of("--requirepass", "s3cret-pw"))) {
            RedisConnection c = connection(redis.address());
            c.setUser("default");
            c.setPassword("s3cret-pw");
            c.setDatabase("3");
            c.setClientName("dsload-inflight");
            InFlightRuns run = new InFlightRuns(c);
            try (run) {
                RedisSampler set = sampler("SET", "db3:#{seq}", "v");
                set.setInFlight("4");
                run.drain(set, InFlightRuns.arrivals(40));
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    jedis.auth("s3cret-pw");
                    assertTrue(jedis.clientList().contains("name=dsload-inflight"), jedis.clientList());
                    jedis.select(3);
                    assertEquals(40, jedis.dbSize(), "the keys went to database 3");
                }
            }
            assertTrue(run.requests().stream().allMatch(r -> r.outcome().success()));

            RedisConnection wrong = connection(redis.address());
            wrong.setPassword("not-it");
            wrong.setCheckOnStart("false");
            InFlightRuns refused = new InFlightRuns(wrong);
            try (refused) {
                refused.loop(get(3), Duration.ofMillis(500));
            }
            Completion first = refused.requests().get(0);
            assertFalse(first.outcome().success());
            assertTrue(Set.of("WRONGPASS", "ERR").contains(first.outcome().code()), first.outcome().code());
            assertTrue(first.outcome().message().startsWith("logging in to " + redis.address() + " failed"),
                    first.outcome().message());
            assertTrue(refused.requests().stream().noneMatch(r -> r.outcome().message().contains("not-it")),
                    "the password is never shown");
            assertTrue(refused.requests().size() < 100, "failed logins back off too: " + refused.requests().size());
        }
    }

    @Test
    void tlsWithRequestsInFlightIsRefusedAtTheFirstSampleNamingTheFields() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection("127.0.0.1:" + Ports.free());
        c.setSsl("true");
        c.setCheckOnStart("false");
        c.testStarted();
        SampleResult r;
        try {
            r = get(10).sample(null);
        } finally {
            c.testEnded();
        }
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("field 'In flight'") && r.getResponseMessage().contains("TLS"),
                r.getResponseMessage());
    }

    @Test
    @org.junit.jupiter.api.Tag("alone") // compares start delays with a timer's on this machine: beside the start of
    // JMeter JVMs of another test only 60 of 500 requests found the sender idle
    void underAnArrivalScheduleEachRequestIsSentAtItsIntendedStartNeverBefore() {
        try (EmbeddedRedis redis = loaded(1000)) {
            TimerDelays.assertSentOnTimeSoonerThanATimer(new InFlightRuns(connection(redis.address())), get(5),
                    500, 5);
        }
    }

    @Test
    void aRowShowsItsFirstRequestAndReplyWithinTheLimitAndFailuresNameTheCommand() {
        try (EmbeddedRedis redis = loaded(10)) {
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                jedis.del("key:3");
                jedis.hset("key:3", "f", "v");
            }
            InFlightRuns run = new InFlightRuns(connection(redis.address()));
            try (run) {
                RedisSampler get = sampler("GET", "key:#{seq:10}", "");
                get.setInFlight("3");
                get.setResponseDataLimit("50");
                run.drain(get, InFlightRuns.arrivals(10));
            }
            RequestsResult failed = run.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
            assertEquals("WRONGTYPE", failed.getResponseCode());
            assertEquals("GET key:3", failed.getSamplerData());
            RequestsResult ok = run.rows.stream().filter(SampleResult::isSuccessful).findFirst().orElseThrow();
            assertTrue(ok.getSamplerData().startsWith("GET key:"), ok.getSamplerData());
            String text = new String(ok.getResponseData(), StandardCharsets.UTF_8);
            assertTrue(text.startsWith("\"vvvv") && text.contains("truncated at 50"), text);
            Set<String> codes = run.rows.stream().map(SampleResult::getResponseCode).collect(Collectors.toSet());
            assertEquals(Set.of("OK", "WRONGTYPE"), codes);
        }
    }

    @Test
    void commandsAndRepliesLargerThanTheConnectionsBuffersGoThroughWhole() {
        int size = 200_123; // 50 times the reply buffer a connection starts with, more than a socket takes in one call
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            InFlightRuns run = new InFlightRuns(connection(redis.address()));
            try (run) {
                RedisSampler set = sampler("SET", "big:#{seq:6}", "#{value}");
                set.setValueSize(Integer.toString(size));
                set.setInFlight("3");
                set.setResponseDataLimit("0");
                run.drain(set, InFlightRuns.arrivals(6));
                RedisSampler get = sampler("GET", "big:#{seq:6}", "");
                get.setInFlight("3");
                get.setResponseDataLimit("0");
                run.drain(get, InFlightRuns.arrivals(6));
            }
            List<Completion> requests = run.requests();
            assertEquals(12, requests.size());
            assertTrue(requests.stream().allMatch(r -> r.outcome().success()), requests.toString());
            // each GET reply: $<size>\r\n, the value, \r\n
            long replies = requests.stream().filter(r -> r.outcome().receivedBytes() == 1 + Integer.toString(size).length() + 2
                    + size + 2).count();
            assertEquals(6, replies, "every GET read its whole value");
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                Set<String> keys = jedis.keys("big:*");
                assertEquals(6, keys.size(), keys.toString());
                for (String key : keys) {
                    assertEquals(size, jedis.strlen(key), "the server holds each value whole: " + key);
                }
            }
        }
    }
}
