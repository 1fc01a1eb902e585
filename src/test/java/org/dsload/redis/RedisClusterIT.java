package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Completion;
import org.dsload.core.Results;
import org.dsload.process.Deadline;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedRedisCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

@Timeout(120)
class RedisClusterIT {
    private static EmbeddedRedisCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedRedisCluster.start(3);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @org.junit.jupiter.api.BeforeEach
    void emptyEveryNode() {
        for (EmbeddedRedis node : cluster.nodes()) {
            try (Jedis jedis = new Jedis(node.host(), node.port())) {
                jedis.flushAll();
            }
        }
    }

    private static RedisConnection clusterConnection() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection(cluster.nodes().get(0).address());
        c.setMode("cluster");
        c.testStarted();
        return c;
    }

    @Test
    void keysAreRoutedToTheNodeOwningTheirSlot() {
        RedisConnection c = clusterConnection();
        try {
            RedisSampler set = sampler("SET", "route:#{seq}", "v");
            for (int i = 0; i < 300; i++) {
                SampleResult r = set.sample(null);
                assertTrue(r.isSuccessful(), r.getResponseMessage());
            }
        } finally {
            c.testEnded();
        }
        long total = 0;
        for (EmbeddedRedis node : cluster.nodes()) {
            try (Jedis jedis = new Jedis(node.host(), node.port())) {
                long keys = jedis.dbSize();
                assertTrue(keys > 50, "every master holds a share of the keys, " + node.address() + " has " + keys);
                total += keys;
            }
        }
        assertEquals(300, total);
    }

    @Test
    void pipelinesSpanSeveralNodes() {
        RedisConnection c = clusterConnection();
        try {
            RedisSampler load = sampler("SET", "pipe:#{seq}", "#{value}");
            load.setPipeline("60");
            SampleResult loaded = load.sample(null);
            assertTrue(loaded.isSuccessful(), loaded.getResponseMessage());
            assertEquals(60, loaded.getSampleCount());
            RedisSampler read = sampler("GET", "pipe:#{seq}", "");
            read.setPipeline("60");
            read.setNilIsFailure("true");
            SampleResult got = read.sample(null);
            assertTrue(got.isSuccessful(), got.getResponseMessage());
            assertEquals("OK", got.getResponseCode());
        } finally {
            c.testEnded();
        }
    }

    @Test
    void hashTagsKeepMultiKeyCommandsOnOneNode() {
        RedisConnection c = clusterConnection();
        try {
            // MSET interleaves keys and values: the first key goes in Keys, which routes the command
            for (int i = 0; i < 10; i++) {
                SampleResult mset = sampler("MSET", "{u1}:a", "1 {u1}:b 2").sample(null);
                assertTrue(mset.isSuccessful(), mset.getResponseMessage());
            }
            SampleResult both = sampler("MGET", "{u1}:a {u1}:b", "").sample(null);
            assertEquals("1) \"1\"\n2) \"2\"", both.getResponseDataAsString());
            SampleResult cross = sampler("MGET", "x1 x2 x3 x4", "").sample(null);
            assertTrue(!cross.isSuccessful(), "keys in different slots are refused: " + cross.getResponseMessage());
        } finally {
            c.testEnded();
        }
    }

    private static InFlightRuns clusterThread() {
        RedisConnection c = connection(cluster.nodes().get(0).address());
        c.setMode("cluster");
        return new InFlightRuns(c);
    }

    @Test
    void requestsInFlightAreRoutedByTheirSlot() {
        InFlightRuns run = clusterThread();
        try (run) {
            RedisSampler set = sampler("SET", "flight:#{seq}", "v");
            set.setInFlight("12");
            run.drain(set, InFlightRuns.arrivals(600));
        }
        assertEquals(600, run.requests().size());
        assertTrue(run.requests().stream().allMatch(r -> r.outcome().success()), run.rows.get(0).getResponseMessage());
        long total = 0;
        for (EmbeddedRedis node : cluster.nodes()) {
            try (Jedis jedis = new Jedis(node.host(), node.port())) {
                long keys = jedis.dbSize();
                assertTrue(keys > 100, "every master holds a share of the keys, " + node.address() + " has " + keys);
                total += keys;
            }
        }
        assertEquals(600, total, "no key twice, none lost: no redirection was needed");
    }

    @Test
    void aSlotThatMovedAfterTheTopologyWasReadIsFollowed() throws InterruptedException {
        String key = "{moving}:k";
        int slot = JedisClusterCRC16.getSlot(key);
        EmbeddedRedis from = owner(slot);
        EmbeddedRedis to = cluster.nodes().stream().filter(n -> n != from).findFirst().orElseThrow();
        InFlightRuns run = clusterThread();
        try (run) {
            RedisSampler warm = sampler("SET", "warm:#{seq}", "v");
            warm.setInFlight("2");
            RedisSampler set = sampler("SET", key, "moved");
            set.setInFlight("2");
            run.drain(warm, InFlightRuns.arrivals(10)); // the slot map is read now, with the slot on 'from'
            moveEmptySlot(key, to);
            run.drain(set, InFlightRuns.arrivals(5));
        }
        assertTrue(run.requests().stream().allMatch(r -> r.outcome().success()), run.rows.get(run.rows.size() - 1)
                .getResponseMessage());
        try (Jedis jedis = new Jedis(to.host(), to.port())) {
            assertEquals("moved", jedis.get(key), "the SET went where MOVED pointed");
        }
        // *3 $3 SET $10 {moving}:k $5 moved: 41 bytes; the first SET was sent twice, to the old owner and the new
        long redirected = run.requests().stream().filter(r -> r.outcome().sentBytes() == 82).count();
        assertTrue(redirected >= 1, "a request followed MOVED: " + run.requests().stream()
                .map(r -> r.outcome().sentBytes()).toList());
    }

    @Test
    void aSlotBeingMigratedIsFollowedWithAsking() {
        String key = "{asking}:k";
        int slot = JedisClusterCRC16.getSlot(key);
        EmbeddedRedis from = owner(slot);
        EmbeddedRedis to = cluster.nodes().stream().filter(n -> n != from).findFirst().orElseThrow();
        InFlightRuns run = clusterThread();
        try (run; Jedis source = new Jedis(from.host(), from.port()); Jedis target = new Jedis(to.host(), to.port())) {
            target.clusterSetSlotImporting(slot, source.clusterMyId());
            source.clusterSetSlotMigrating(slot, target.clusterMyId());
            try {
                RedisSampler set = sampler("SET", key, "asked");
                set.setInFlight("2");
                run.drain(set, InFlightRuns.arrivals(1));
                target.asking();
                assertEquals("asked", target.get(key), "the SET went where ASK pointed, after ASKING");
            } finally {
                source.clusterSetSlotStable(slot);
                target.clusterSetSlotStable(slot);
            }
        }
        Completion request = run.requests().get(0);
        assertTrue(request.outcome().success(), request.outcome().message());
        // *3 $3 SET $10 {asking}:k $5 asked: 41 bytes, sent twice, and *1 $6 ASKING: 16 bytes
        assertEquals(41 + 16 + 41, request.outcome().sentBytes());
    }

    private static EmbeddedRedis owner(int slot) {
        try (Jedis jedis = new Jedis(cluster.nodes().get(0).host(), cluster.nodes().get(0).port())) {
            for (Object range : jedis.clusterSlots()) {
                List<?> r = (List<?>) range;
                if ((Long) r.get(0) <= slot && slot <= (Long) r.get(1)) {
                    long port = (Long) ((List<?>) r.get(2)).get(1);
                    return cluster.nodes().stream().filter(n -> n.port() == port).findFirst().orElseThrow();
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /**
     * Gives the empty slot of a key to {@code to}, as a resharding tool ends a migration: first a config epoch on
     * {@code to} greater than any other, so that no older claim gossiped by the old owner takes the slot back, then
     * the slot there and on the others. A node that still points elsewhere is told again until every node agrees.
     */
    private static void moveEmptySlot(String key, EmbeddedRedis to) throws InterruptedException {
        int slot = JedisClusterCRC16.getSlot(key);
        String id;
        try (Jedis jedis = new Jedis(to.host(), to.port())) {
            id = jedis.clusterMyId();
        }
        String moved = "MOVED " + slot + " " + to.address();
        List<EmbeddedRedis> toFirst = new ArrayList<>(List.of(to));
        cluster.nodes().stream().filter(n -> n != to).forEach(toFirst::add);
        assertTrue(Deadline.await(() -> {
            boolean agreed = true;
            for (EmbeddedRedis node : toFirst) {
                if (!readOf(node, key).equals(node == to ? "" : moved)) {
                    agreed = false;
                    try (Jedis jedis = new Jedis(node.host(), node.port())) {
                        if (node == to) {
                            jedis.sendCommand(Protocol.Command.CLUSTER, "BUMPEPOCH");
                        }
                        jedis.clusterSetSlotNode(slot, id);
                    }
                }
            }
            return agreed;
        }, Duration.ofSeconds(20), Duration.ofMillis(50)), "every node points slot " + slot + " at " + to.address());
    }

    /** What a read of the key on the node says: "" when the node serves it, else its redirection. */
    private static String readOf(EmbeddedRedis node, String key) {
        try (Jedis jedis = new Jedis(node.host(), node.port())) {
            jedis.get(key);
            return "";
        } catch (JedisRedirectionException e) {
            return e.getMessage();
        }
    }

    @Test
    void aDatabaseOtherThanZeroIsRefusedInClusterMode() {
        JMeterRuntime.freshVariables();
        RedisConnection c = connection(cluster.nodes().get(0).address());
        c.setMode("cluster");
        c.setDatabase("2");
        c.testStarted();
        SampleResult r = sampler("GET", "k", "").sample(null);
        c.testEnded();
        assertEquals(Results.CONFIG_ERROR, r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("must be 0 in cluster mode"), r.getResponseMessage());
    }
}
