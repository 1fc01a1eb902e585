package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Results;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedRedisCluster;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

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
