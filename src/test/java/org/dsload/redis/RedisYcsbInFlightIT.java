package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SharedClients;
import org.dsload.process.Ports;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedRedisCluster;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.RedisCalls;
import org.dsload.testing.SamplerThread;
import org.dsload.ycsb.DrawnOperation;
import org.dsload.ycsb.YcsbSampler;
import org.dsload.ycsb.YcsbWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import redis.clients.jedis.Jedis;

/** YCSB Operation on the redis binding with operations in flight, against real redis-servers. */
@Timeout(240)
class RedisYcsbInFlightIT {
    private static final Pattern RECORDS = Pattern.compile("(\\d+) records?");

    private static YcsbWorkload workload(String preset, int records, int operations) {
        YcsbWorkload w = new YcsbWorkload();
        w.setName("ycsb");
        w.setVariableName("ycsb");
        w.setWorkload(preset);
        w.setRecordCount(Integer.toString(records));
        w.setOperationCount(Integer.toString(operations));
        w.setFieldLength("20");
        w.setMaxScanLength("20");
        return w;
    }

    private static YcsbSampler sampler(String phase, int inFlight) {
        YcsbSampler s = new YcsbSampler();
        s.setName("ycsb " + phase);
        s.setBinding("redis");
        s.setSession("redis");
        s.setPhase(phase);
        s.setInFlight(Integer.toString(inFlight));
        return s;
    }

    /** A thread's view of the clients the test thread published: the Redis Connection's and the workload's. */
    private record Published(Object client, Object run) implements TestStateListener {
        @Override
        public void testStarted() {
            SharedClients.publish("redis", client);
            SharedClients.publish("ycsb", run);
        }

        @Override
        public void testStarted(String host) {
            testStarted();
        }

        @Override
        public void testEnded() {
        }

        @Override
        public void testEnded(String host) {
        }
    }

    /** Runs a phase on {@code threads} JMeter threads, each with {@code inFlight} operations outstanding, to its end. */
    private static List<Completion> phase(JMeterVariables test, String phase, int threads, int inFlight)
            throws Exception {
        Published published = new Published(test.getObject("redis"), test.getObject("ycsb"));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<SamplerThread>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int number = t;
                running.add(pool.submit(() -> {
                    SamplerThread thread = new SamplerThread(published);
                    JMeterContextService.getContext().setThreadNum(number);
                    try (thread) {
                        YcsbSampler sampler = sampler(phase, inFlight);
                        SampleResult r;
                        while (!(r = thread.sample(sampler)).isIgnore()) {
                            assertTrue(r instanceof RequestsResult, "a row of operations, not: "
                                    + r.getResponseCode() + " " + r.getResponseMessage());
                        }
                    }
                    return thread;
                }));
            }
            List<Completion> all = new ArrayList<>();
            for (Future<SamplerThread> f : running) {
                SamplerThread thread = f.get(90, TimeUnit.SECONDS);
                assertTrue(thread.atThreadEnd.isEmpty(), "nothing was outstanding when the phase ended");
                assertTrue(thread.rows.stream().allMatch(r -> r.requests().stream()
                        .allMatch(c -> c.outcome().code().equals(r.getResponseCode()))), "one outcome per row");
                thread.rows.forEach(r -> r.requests().forEach(c -> all.add(labelled(r, c))));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A completion keeps its row's label in its detail, for counting by operation. */
    private static Completion labelled(SampleResult row, Completion c) {
        return new Completion(c.intendedNanos(), c.sendNanos(), c.endNanos(), c.dropped(), c.count(), c.outcome(),
                row.getSampleLabel());
    }

    private static Map<String, Long> byLabel(List<Completion> ops) {
        return ops.stream().collect(Collectors.groupingBy(c -> (String) c.detail(), Collectors.counting()));
    }

    private static long scannedRecords(List<Completion> ops) {
        return ops.stream().filter(c -> c.detail().equals("SCAN")).mapToLong(c -> {
            Matcher m = RECORDS.matcher(c.outcome().message());
            assertTrue(m.matches(), c.outcome().message());
            return Long.parseLong(m.group(1));
        }).sum();
    }

    private static String firstFailure(List<Completion> ops) {
        return ops.stream().filter(c -> !c.outcome().success()).findFirst()
                .map(c -> c.detail() + " " + c.outcome().code() + " " + c.outcome().message()).orElse("");
    }

    @ParameterizedTest(name = "workload {0}")
    @ValueSource(strings = {"a", "e"})
    void twoThreadsOfEightInFlightSendExactlyTheCommandsTheServerCountsPerOperation(String preset) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterVariables test = JMeterRuntime.freshVariables();
            RedisConnection connection = connection(redis.address());
            YcsbWorkload workload = workload(preset, 600, 3000);
            connection.testStarted();
            workload.testStarted();
            try {
                List<Completion> load = phase(test, "load", 2, 8);
                assertEquals(Map.of("LOAD", 600L), byLabel(load), "every record inserted once");
                assertTrue(load.stream().allMatch(c -> c.outcome().success()), firstFailure(load));
                assertEquals(600, RedisCalls.of(redis, "HMSET"), "a hash per record");
                assertEquals(600, RedisCalls.of(redis, "ZADD"), "its key in the index");
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    assertEquals(600, jedis.zcard("_indices"));
                    assertEquals(601, jedis.dbSize(), "a hash per record, and the index");
                    for (String key : jedis.zrange("_indices", 0, -1)) {
                        assertEquals(10, jedis.hlen(key), key + " holds field0 ... field9");
                    }
                }

                RedisCalls.reset(redis);
                List<Completion> run = phase(test, "run", 2, 8);
                assertTrue(run.stream().allMatch(c -> c.outcome().success()), firstFailure(run));
                assertTrue(run.stream().allMatch(c -> c.elapsedMicros() > 0 && c.endNanos() > c.sendNanos()),
                        "each operation timed on its own, in µs");
                Map<String, Long> ops = byLabel(run);
                assertEquals(3000, ops.values().stream().mapToLong(Long::longValue).sum(), "the operation count: " + ops);
                long reads = ops.getOrDefault("READ", 0L);
                long updates = ops.getOrDefault("UPDATE", 0L);
                long inserts = ops.getOrDefault("INSERT", 0L);
                long scans = ops.getOrDefault("SCAN", 0L);
                long scanned = scannedRecords(run);
                if (preset.equals("a")) {
                    assertTrue(reads > 1000 && updates > 1000, ops.toString());
                } else {
                    assertTrue(scans > 2500 && inserts > 0, ops.toString());
                    assertTrue(scanned > scans, "scans read several records each: " + scanned);
                }
                assertEquals(reads + scanned, RedisCalls.of(redis, "HGETALL"), "a read each, and one per record scanned");
                assertEquals(updates + inserts, RedisCalls.of(redis, "HMSET"), "an update each, and an insert's hash");
                assertEquals(inserts, RedisCalls.of(redis, "ZADD"), "an insert's key in the index");
                assertEquals(scans, RedisCalls.of(redis, "ZRANGEBYSCORE"), "a range per scan");
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    assertEquals(600 + inserts, jedis.zcard("_indices"), "every record is there, the run's inserts too");
                }
                Map<String, Long> counted = SharedClients.lookup("redis", RedisClient.class, "x").sent().snapshot();
                assertEquals(reads + scanned, counted.get("hgetall"), "the connection counts what it sent: " + counted);
            } finally {
                workload.testEnded();
                connection.testEnded();
            }
        }
    }

    /** One load thread's samples, each as the test saw it, and what the thread reported at its end. */
    private record LoadSamples(List<SampleResult> samples, SamplerThread thread) {
        /** Every insert attempt: a row's requests, or a sample of one insert, with the attempt it made. */
        List<Attempt> attempts() {
            List<Attempt> all = new ArrayList<>();
            for (SampleResult r : samples) {
                if (r instanceof RequestsResult row) {
                    row.requests().forEach(c -> all.add(new Attempt((DrawnOperation) c.detail(), r,
                            c.outcome().success(), c.sendNanos(), c.endNanos())));
                } else {
                    String data = r.getSamplerData();
                    Matcher m = Pattern.compile("INSERT (\\S+)(?: \\(attempt (\\d+)\\))?").matcher(data);
                    assertTrue(m.matches(), data);
                    DrawnOperation op = new DrawnOperation(null, m.group(1), -1, -1, null, 0, -1,
                            m.group(2) == null ? 1 : Integer.parseInt(m.group(2)));
                    all.add(new Attempt(op, r, r.isSuccessful(), r.getStartTime() * 1_000_000L, r.getEndTime() * 1_000_000L));
                }
            }
            return all;
        }
    }

    /** One insert attempt and the sample that reported it (times on nanoTime's clock in flight, ms as ns one at a time). */
    private record Attempt(DrawnOperation insert, SampleResult sample, boolean success, long sentNanos, long endNanos) {
    }

    /**
     * A load thread on a server whose {@code _indices} key is a string, so that every insert's ZADD
     * meets WRONGTYPE: samples until the sample {@code stopAt} says (its result included), calling
     * {@code onFailure} after each failed one, as a listener of the thread would between samples.
     */
    private static LoadSamples load(EmbeddedRedis redis, YcsbWorkload workload, int inFlight,
            java.util.function.Predicate<SampleResult> stopAt, Runnable onFailure) throws Exception {
        JMeterVariables test = JMeterRuntime.freshVariables();
        RedisConnection connection = connection(redis.address());
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.set("_indices", "not a sorted set");
        }
        connection.testStarted();
        workload.testStarted();
        try {
            SamplerThread thread = new SamplerThread(new Published(test.getObject("redis"), test.getObject("ycsb")));
            List<SampleResult> samples = new ArrayList<>();
            try (thread) {
                YcsbSampler sampler = sampler("load", inFlight);
                long end = System.nanoTime() + 60_000_000_000L;
                while (System.nanoTime() - end < 0) {
                    SampleResult r = thread.sample(sampler);
                    if (r.isIgnore()) {
                        break;
                    }
                    samples.add(r);
                    if (stopAt.test(r)) {
                        break;
                    }
                    if (!r.isSuccessful()) {
                        onFailure.run();
                    }
                }
            }
            return new LoadSamples(samples, thread);
        } finally {
            workload.testEnded();
            connection.testEnded();
        }
    }

    /**
     * In flight 4 with 3 records: every record is claimed at once, so only retries are left when they
     * fail, and the thread waits for them rather than end.
     */
    @ParameterizedTest(name = "in flight {0}, {1} records")
    @CsvSource({"1, 200", "4, 200", "4, 3"})
    void aFailedLoadInsertIsTriedAgainAfterItsIntervalAndTheLoadEndsWithEveryRecordInOnce(int inFlight, int records)
            throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            YcsbWorkload workload = workload("a", records, 0);
            workload.setInsertionRetryLimit("2");
            workload.setInsertionRetryInterval("0.2");
            boolean[] cured = {false};
            LoadSamples load = load(redis, workload, inFlight, r -> false, () -> {
                if (!cured[0]) {
                    cured[0] = true; // the first failed attempt is seen: the store accepts inserts from now on
                    try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                        jedis.del("_indices");
                    }
                }
            });
            List<Attempt> attempts = load.attempts();
            List<Attempt> failed = attempts.stream().filter(a -> !a.success()).toList();
            assertTrue(!failed.isEmpty() && (inFlight > 1 || failed.size() == 1),
                    "the first insert failed (in flight: those sent with it may too): " + failed.size());
            for (Attempt a : failed) {
                SampleResult r = a.sample();
                assertEquals("WRONGTYPE", r.getResponseCode());
                assertEquals(1, a.insert().attempt(), "every retry went after the cure");
                assertFalse(r.isStopTest(), "a failed attempt with retries left does not stop the test");
                assertTrue(r.getResponseMessage().matches("WRONGTYPE .*\\(attempt 1 of 3: the insert is tried again in "
                        + "0\\.\\d\\d s\\)"), r.getResponseMessage());
                if (r instanceof RequestsResult row) {
                    assertEquals(1, row.requests().size(), "a failed attempt is a row of its own");
                }
                List<Attempt> retries = attempts.stream().filter(b -> b.insert().key().equals(a.insert().key())
                        && b.insert().attempt() == 2).toList();
                assertEquals(1, retries.size(), "tried again once: " + a.insert().key());
                assertTrue(retries.get(0).success(), "and it succeeded");
                assertTrue(retries.get(0).sentNanos() - a.endNanos() >= 159_000_000L,
                        "after the interval, 0.8 x 0.2 s at least: " + (retries.get(0).sentNanos() - a.endNanos()));
            }
            assertTrue(attempts.stream().allMatch(a -> a.sample().getSampleLabel().equals("LOAD")));
            assertTrue(load.thread().atThreadEnd.isEmpty(), "nothing left when the load ended");
            List<String> inserted = attempts.stream().filter(Attempt::success).map(a -> a.insert().key()).toList();
            assertEquals(records, inserted.size(), "each record inserted once");
            assertEquals(records, inserted.stream().distinct().count());
            assertEquals(records + failed.size(), RedisCalls.of(redis, "HMSET"), "a hash per attempt");
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                assertEquals(records, jedis.zcard("_indices"), "every record's key in the index");
                assertEquals(records + 1, jedis.dbSize(), "a hash per record, and the index");
            }
            if (records < inFlight) {
                assertEquals(records, failed.size(), "all sent before the cure, all failed once");
            }
        }
    }

    @ParameterizedTest(name = "retry limit {0}, in flight {1}")
    @CsvSource({"0, 1", "0, 4", "1, 1", "1, 4"})
    void anInsertFailedWithNoRetryLeftStopsTheTest(int limit, int inFlight) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            YcsbWorkload workload = workload("a", 200, 0);
            workload.setInsertionRetryLimit(Integer.toString(limit));
            workload.setInsertionRetryInterval("0.1");
            LoadSamples load = load(redis, workload, inFlight, SampleResult::isStopTest, () -> {
            });
            List<SampleResult> samples = load.samples();
            SampleResult last = samples.get(samples.size() - 1);
            assertTrue(last.isStopTest(), "the load stopped the test: " + last.getResponseMessage());
            assertEquals("WRONGTYPE", last.getResponseCode());
            assertTrue(samples.stream().noneMatch(SampleResult::isSuccessful), "every insert fails");
            List<Attempt> attempts = load.attempts();
            Attempt stopped = attempts.get(attempts.size() - 1);
            assertEquals(limit + 1, stopped.insert().attempt(), "the stop came at the last attempt of an insert");
            if (limit == 0) {
                assertEquals(1, samples.size(), "the first failure stops the test, as without retries");
                assertFalse(last.getResponseMessage().contains("tried again"), last.getResponseMessage());
            } else {
                assertTrue(attempts.stream().anyMatch(a -> a.insert().key().equals(stopped.insert().key())
                        && a.insert().attempt() == 1 && !a.sample().isStopTest()
                        && a.sample().getResponseMessage().contains("(attempt 1 of 2: the insert is tried again")),
                        "its first attempt failed without stopping the test");
            }
        }
    }

    @Test
    void inFlightEachOperationEndsWithTheOutcomeAndBytesOfTheBlockingBinding() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterRuntime.freshVariables();
            RedisConnection connection = connection(redis.address());
            connection.testStarted();
            RedisYcsbBinding binding = new RedisYcsbBinding(SharedClients.lookup("redis", RedisClient.class,
                    "x"), 3);
            try {
                String[] values = {"a".repeat(30), "b".repeat(40), "c".repeat(50)};
                List<Function<Boolean, Outcome>> operations = List.of(
                        async -> async ? join(binding.insertAsync("user1", values)) : binding.insert("user1", values),
                        async -> async ? join(binding.readAsync("user1", -1)) : binding.read("user1", -1),
                        async -> async ? join(binding.readAsync("user1", 2)) : binding.read("user1", 2),
                        async -> async ? join(binding.readAsync("nobody", -1)) : binding.read("nobody", -1),
                        async -> async ? join(binding.updateAsync("user1", 1, new String[] {"z"}))
                                : binding.update("user1", 1, new String[] {"z"}),
                        async -> async ? join(binding.scanAsync("user1", 5, -1)) : binding.scan("user1", 5, -1));
                for (Function<Boolean, Outcome> operation : operations) {
                    Outcome blocking = operation.apply(false);
                    Outcome inFlight = operation.apply(true);
                    assertEquals(blocking, inFlight, "the same outcome, message and bytes each way");
                    assertTrue(blocking.sentBytes() > 0 && blocking.receivedBytes() > 0, blocking.toString());
                }
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    jedis.del("_indices");
                    jedis.set("_indices", "not a sorted set");
                }
                Outcome blocking = binding.insert("user2", values);
                Outcome inFlight = join(binding.insertAsync("user2", values));
                assertEquals("WRONGTYPE", blocking.code(), blocking.toString());
                assertEquals(blocking, inFlight, "a failed ZADD fails the insert the same way");
            } finally {
                binding.release();
                connection.testEnded();
            }
        }
    }

    private static Outcome join(java.util.concurrent.CompletionStage<Outcome> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aPausedServerHoldsTheOperationsOutstandingUntilTheyCompleteLateOrTimeOutAndTheRunEndsOnTime() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            JMeterVariables test = JMeterRuntime.freshVariables();
            RedisConnection connection = connection(redis.address());
            connection.setSocketTimeout("1000");
            YcsbWorkload workload = workload("a", 300, 0);
            connection.testStarted();
            workload.testStarted();
            try {
                assertTrue(phase(test, "load", 1, 8).stream().allMatch(c -> c.outcome().success()));
                SamplerThread thread = new SamplerThread(new Published(test.getObject("redis"), test.getObject("ycsb")));
                // [short pause, its resume, long pause, its resume]: the thread keeps sampling meanwhile
                long[] at = new long[4];
                long ended;
                Thread pauser = new Thread(() -> {
                    try {
                        thread.awaitSamples(20, Duration.ofSeconds(30));
                        redis.pause(); // shorter than the timeout: what is outstanding completes late
                        at[0] = System.nanoTime();
                        Thread.sleep(300);
                        redis.resume();
                        at[1] = System.nanoTime();
                        Thread.sleep(300);
                        redis.pause(); // longer than the timeout: what is outstanding fails at its timeout
                        at[2] = System.nanoTime();
                        Thread.sleep(2000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        redis.resume();
                        at[3] = System.nanoTime();
                    }
                });
                try (thread) {
                    YcsbSampler run = sampler("run", 8);
                    pauser.start();
                    thread.loopUntil(run, () -> !pauser.isAlive() && at[3] != 0
                            && thread.sentAfter(at[3] + 100_000_000L) > 60, Duration.ofSeconds(60));
                    thread.endThread();
                    ended = System.nanoTime();
                    pauser.join();
                }
                long resumedAt = at[3];
                List<Completion> ops = thread.requests();
                // the signal takes effect before pause() returns: what is outstanding at at[0] waits for the resume
                List<Completion> late = ops.stream()
                        .filter(c -> c.sendNanos() < at[0] && c.endNanos() > at[0] + 100_000_000L).toList();
                // how many were outstanding at that instant depends on how soon the thread had refilled its window
                assertTrue(!late.isEmpty() && late.stream().allMatch(c -> c.outcome().success()),
                        "those outstanding during the 300 ms pause completed late, successfully: " + late.size() + " "
                        + firstFailure(late));
                assertTrue(ops.stream().filter(c -> c.sendNanos() < at[1]).allMatch(c -> c.outcome().success()),
                        "before and during the short pause every operation succeeded: " + firstFailure(ops.stream()
                        .filter(c -> c.sendNanos() < at[1]).toList()));
                List<Completion> timedOut = ops.stream().filter(c -> c.outcome().code().equals(RedisErrors.TIMEOUT))
                        .toList();
                assertTrue(timedOut.size() >= 8, "the 8 outstanding at the long pause, and those sent during it, time "
                        + "out: " + timedOut.size());
                assertTrue(timedOut.stream().allMatch(c -> c.elapsedMicros() >= 1_000_000),
                        "each at its 1000 ms socket timeout, not before");
                assertTrue(timedOut.stream().allMatch(c -> c.elapsedMicros() < 2_000_000),
                        "and not held past it until the window's backstop (6 s)");
                assertTrue(timedOut.stream().allMatch(c -> c.outcome().message().contains("socket timeout of 1000 ms")),
                        timedOut.get(0).outcome().message());
                List<Completion> after = ops.stream().filter(c -> c.sendNanos() > resumedAt + 100_000_000L).toList();
                assertTrue(after.size() > 50 && after.stream().allMatch(c -> c.outcome().success()),
                        "operations sent after the server came back succeed: " + after.size() + " "
                        + firstFailure(after));
                assertTrue(ended - resumedAt < 3_000_000_000L,
                        "the run ended at its duration and the thread's end did not wait past it: "
                        + (ended - resumedAt) / 1_000_000 + " ms after the resume");
                assertEquals(0, SharedClients.lookup("redis", RedisClient.class, "x").endpoint()
                        .openConnections().get(), "the thread's connections are closed at its end");
            } finally {
                workload.testEnded();
                connection.testEnded();
            }
        }
    }

    @Test
    void aRefusedConnectionFailsEachOperationAndBacksOffInsteadOfSpinning() {
        JMeterRuntime.freshVariables();
        RedisConnection connection = connection("127.0.0.1:" + Ports.free());
        connection.setCheckOnStart("false");
        YcsbWorkload workload = workload("c", 1000, 0);
        SamplerThread thread = new SamplerThread(connection);
        workload.testStarted();
        try (thread) {
            thread.loop(sampler("run", 8), Duration.ofSeconds(2));
        } finally {
            workload.testEnded();
        }
        List<Completion> ops = thread.requests();
        assertFalse(ops.isEmpty());
        assertTrue(ops.stream().allMatch(c -> c.outcome().code().equals("ConnectException")),
                ops.get(0).outcome().code() + " " + ops.get(0).outcome().message());
        assertTrue(ops.get(0).outcome().message().startsWith("cannot connect to 127.0.0.1:"), ops.get(0).outcome()
                .message());
        assertTrue(ops.size() < 200, "a refused connection backs off: " + ops.size() + " attempts in 2 s");
    }

    @Test
    void tlsWithOperationsInFlightIsRefusedAtTheFirstSampleNamingTheFields() {
        JMeterRuntime.freshVariables();
        RedisConnection connection = connection("127.0.0.1:" + Ports.free());
        connection.setSsl("true");
        connection.setCheckOnStart("false");
        YcsbWorkload workload = workload("a", 100, 0);
        connection.testStarted();
        workload.testStarted();
        SampleResult r;
        try {
            r = sampler("run", 4).sample(null);
        } finally {
            workload.testEnded();
            connection.testEnded();
        }
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("field 'In flight' is 4") && r.getResponseMessage().contains("TLS"),
                r.getResponseMessage());
    }

    @Test
    void aClusterGetsEachCommandOnTheNodeOwningItsKey() throws Exception {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3)) {
            JMeterVariables test = JMeterRuntime.freshVariables();
            RedisConnection connection = connection(cluster.nodes().get(0).address());
            connection.setMode("cluster");
            YcsbWorkload workload = workload("a", 400, 1500);
            workload.setInsertProportion("0.1");
            connection.testStarted();
            workload.testStarted();
            try {
                List<Completion> load = phase(test, "load", 1, 8);
                assertTrue(load.stream().allMatch(c -> c.outcome().success()), firstFailure(load));
                List<Completion> run = phase(test, "run", 1, 8);
                assertTrue(run.stream().allMatch(c -> c.outcome().success()), firstFailure(run));
                Map<String, Long> ops = byLabel(run);
                Function<String, Long> total = command -> cluster.nodes().stream()
                        .mapToLong(n -> RedisCalls.of(n, command)).sum();
                long inserts = ops.getOrDefault("INSERT", 0L);
                assertEquals(400 + ops.get("UPDATE") + inserts, total.apply("HMSET"));
                assertEquals(ops.get("READ"), total.apply("HGETALL"));
                assertEquals(400 + inserts, total.apply("ZADD"));
                assertTrue(cluster.nodes().stream().allMatch(n -> RedisCalls.of(n, "HMSET") > 0),
                        "the records spread over every node");
                assertEquals(1, cluster.nodes().stream().filter(n -> RedisCalls.of(n, "ZADD") > 0).count(),
                        "the index lives on one node");
                assertEquals(0, cluster.nodes().stream().mapToLong(n -> movedOrAsked(n)).sum(),
                        "no command needed a redirection");
            } finally {
                workload.testEnded();
                connection.testEnded();
            }
        }
    }

    /** Errors the node answered (MOVED, ASK among them), from its error stats. */
    private static long movedOrAsked(EmbeddedRedis node) {
        try (Jedis jedis = new Jedis(node.host(), node.port())) {
            Matcher m = Pattern.compile("errorstat_(MOVED|ASK):count=(\\d+)").matcher(jedis.info("errorstats"));
            long n = 0;
            while (m.find()) {
                n += Long.parseLong(m.group(2));
            }
            return n;
        }
    }
}
