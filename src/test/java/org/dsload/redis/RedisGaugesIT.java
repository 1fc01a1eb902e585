package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.gauges.TestRunFolder;
import org.dsload.redis.report.RedisServerSection;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedRedisCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/** INFO recorded from real redis-servers while a Redis Connection's samplers run, and the cross-check. */
@Timeout(120)
class RedisGaugesIT {
    private static final long LOAD_MILLIS = 2500;

    /** Runs SETs and GETs (and one pipeline) for a while; returns the commands the samples reported. */
    private static long load(String prefix) {
        RedisSampler set = sampler("SET", prefix + ":#{seq}", "v");
        RedisSampler get = sampler("GET", prefix + ":#{seq}", "");
        RedisSampler pipeline = sampler("SET", prefix + ":p:#{seq}", "v");
        pipeline.setPipeline("40");
        long commands = 0;
        long end = System.nanoTime() + LOAD_MILLIS * 1_000_000;
        while (System.nanoTime() < end) {
            for (RedisSampler s : List.of(set, get)) {
                SampleResult r = s.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
                commands += r.getSampleCount();
            }
        }
        SampleResult piped = pipeline.sample(null);
        assertTrue(piped.isSuccessful(), piped.getResponseMessage());
        return commands + piped.getSampleCount();
    }

    @Test
    void aStandaloneServersInfoIsRecordedEverySecondOnAConnectionOfItsOwnAndItsCommandstatsMatch() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); TestRunFolder run = TestRunFolder.create("redis-gauges")) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.testStarted();
            long sent;
            String clients;
            try {
                sent = load("g");
                try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                    clients = jedis.clientList();
                }
            } finally {
                c.testEnded();
            }
            assertTrue(clients.contains("name=dsload-gauges"), clients);

            List<String> lines = Files.readAllLines(run.dir().resolve(RedisServerSection.NAME));
            long answers = lines.stream().filter(l -> l.contains("\t" + redis.address() + "\tok\t")).count();
            assertTrue(answers >= 3, "a reading at start, each second, and at the end: " + lines);

            String section = run.section(new RedisServerSection());
            assertTrue(section.startsWith("== Redis server gauges"), section);
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + sent + ", " + sent
                    + " (match) commands GET, SET"), section);
            assertTrue(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(redis.address()) + " +" + answers
                    + " +master ").matcher(section).find(), section);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until the recorder has written a poll the server did not answer. */
    private static void awaitMissedPoll(TestRunFolder run, EmbeddedRedis redis) throws InterruptedException {
        assertTrue(org.dsload.process.Deadline.await(() -> {
            try {
                return Files.readAllLines(run.dir().resolve(RedisServerSection.NAME)).stream()
                        .anyMatch(l -> l.contains("\t" + redis.address() + "\tunreachable\t"));
            } catch (java.io.IOException e) {
                return false;
            }
        }, java.time.Duration.ofSeconds(20), java.time.Duration.ofMillis(100)), "a poll found the server out");
    }

    /** What happens to the server after the load and before the test ends. */
    private interface AtTheEnd {
        void run() throws Exception;
    }

    /** A connection's load, then {@code atTheEnd}, then the test's end; returns the commands the samples reported. */
    private static long loadThen(EmbeddedRedis redis, String prefix, AtTheEnd atTheEnd) throws Exception {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection(redis.address());
        c.testStarted();
        try {
            long sent = load(prefix);
            atTheEnd.run();
            return sent;
        } finally {
            c.testEnded();
        }
    }

    @Test
    void aServerOutWhenTheLoadEndsIsReadAfterItOnceItIsBackAndItsCountStands() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); TestRunFolder run = TestRunFolder.create("redis-back")) {
            long sent = loadThen(redis, "b", () -> {
                redis.pause(); // frozen: polls go unanswered
                awaitMissedPoll(run, redis);
                // back a moment after the load ends (a planned fault's length), within the wait of the
                // reading after the load
                new Thread(() -> {
                    org.dsload.process.Deadline.sleep(1500);
                    redis.resume();
                }).start();
            });
            List<String> lines = Files.readAllLines(run.dir().resolve(RedisServerSection.NAME));
            assertTrue(lines.get(lines.size() - 1).contains("\t" + redis.address() + "\tok\t"),
                    "the last reading, after the load, was answered: " + lines);
            String section = run.section(new RedisServerSection());
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + sent + ", " + sent
                    + " (match) commands GET, SET"), section);
        }
    }

    @Test
    void aServerKilledBeforeTheLoadEndsIsNotCountedFromItsLastPoll() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); TestRunFolder run = TestRunFolder.create("redis-killed")) {
            long sent = loadThen(redis, "k", redis::stop);
            String section = run.section(new RedisServerSection());
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + sent + ", - (not counted: "
                    + redis.address() + " down since "), section);
        }
    }

    @Test
    void withGaugesOffNothingIsRecorded() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); TestRunFolder run = TestRunFolder.create("redis-no-gauges")) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setRecordGauges("false");
            c.testStarted();
            try {
                assertTrue(sampler("SET", "k", "v").sample(null).isSuccessful());
            } finally {
                c.testEnded();
            }
            assertFalse(Files.exists(run.dir().resolve(RedisServerSection.NAME)));
            assertEquals("", run.section(new RedisServerSection()));
        }
    }

    @Test
    void everyClusterNodeIsRecordedAndTheCrossCheckAddsUpThePrimaries() {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(3); TestRunFolder run = TestRunFolder.create("redis-cluster")) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(cluster.nodes().get(0).address());
            c.setMode("cluster");
            c.testStarted();
            long sent;
            try {
                sent = load("c");
            } finally {
                c.testEnded();
            }
            String section = run.section(new RedisServerSection());
            for (EmbeddedRedis node : cluster.nodes()) {
                assertTrue(section.contains("\n" + node.address() + "  "), node.address() + " in\n" + section);
            }
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + sent + ", " + sent
                    + " (match)"), section);
        }
    }

    @Test
    void aPasswordProtectedServerGivesItsGaugesAndThePasswordIsInNoFile() {
        String secret = "gauge-secret-41";
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", org.dsload.process.Ports.free(),
                List.of("--requirepass", secret)); TestRunFolder run = TestRunFolder.create("redis-auth")) {
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setPassword(secret);
            c.testStarted();
            long sent;
            try {
                sent = load("a");
            } finally {
                c.testEnded();
            }
            String section = run.section(new RedisServerSection());
            assertTrue(section.contains("Cross-check [dsload reported, server counted] " + sent + ", " + sent
                    + " (match)"), section);
            assertFalse(run.anyFileContains(secret));
        }
    }

    @Test
    void anAclUserThatMayNotRunInfoIsNamedOnceAndTheLoadGoesOn() {
        String admin = "admin-secret-17";
        String secret = "loader-secret-23";
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", org.dsload.process.Ports.free(),
                List.of("--requirepass", admin)); TestRunFolder run = TestRunFolder.create("redis-acl")) {
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                jedis.auth(admin);
                jedis.aclSetUser("loader", "on", ">" + secret, "~*", "+@all", "-info");
            }
            JMeterRuntime.freshVariables();
            RedisConnection c = connection(redis.address());
            c.setUser("loader");
            c.setPassword(secret);
            c.testStarted();
            try {
                load("acl");
            } finally {
                c.testEnded();
            }
            List<String> refusals;
            try {
                refusals = Files.readAllLines(run.dir().resolve(RedisServerSection.NAME)).stream()
                        .filter(l -> l.contains("\trefused\t")).toList();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertEquals(1, refusals.size(), "refused once, never asked again: " + refusals);
            assertTrue(refusals.get(0).contains("NOPERM"), refusals.get(0));
            String section = run.section(new RedisServerSection());
            assertTrue(section.contains("Refused: " + redis.address() + " gave no gauges: NOPERM"), section);
            assertTrue(section.contains("(not counted: " + redis.address() + " gave no gauges)"), section);
            assertFalse(run.anyFileContains(secret));
            assertFalse(run.anyFileContains(admin));
        }
    }
}
