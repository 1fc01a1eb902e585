package org.dsload.redis;

import static org.dsload.redis.RedisFixture.connection;
import static org.dsload.redis.RedisFixture.run;
import static org.dsload.redis.RedisFixture.sampler;
import static org.dsload.redis.RedisFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import redis.clients.jedis.Jedis;

/** Every command family against a real redis-server. */
class RedisSamplerIT {
    private static EmbeddedRedis redis;
    private RedisConnection connection;

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void connect() {
        JMeterRuntime.freshVariables();
        connection = connection(redis.address());
        connection.testStarted();
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
        }
    }

    @AfterEach
    void disconnect() {
        connection.testEnded();
    }

    private static void assertOk(SampleResult r) {
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
        assertEquals("OK", r.getResponseCode());
    }

    @Test
    void setThenGetReturnsTheValueWithExactByteCounts() {
        SampleResult set = run("SET", "user:1", "Ada");
        assertOk(set);
        assertEquals("\"OK\"", text(set));
        // *3 $3 SET $6 user:1 $3 Ada
        assertEquals(4 + 9 + 12 + 9, set.getSentBytes());

        SampleResult get = run("GET", "user:1", "");
        assertOk(get);
        assertEquals("\"Ada\"", text(get));
        assertEquals(4 + 9 + 12, get.getSentBytes());
        assertEquals(9, get.getBytesAsLong()); // $3\r\nAda\r\n
        assertEquals("GET user:1", get.getSamplerData());
        assertEquals(1, get.getSampleCount());
        assertTrue(get.getTime() >= 0 && get.getLatency() <= get.getTime());
    }

    @Test
    void generatedValuesHaveTheConfiguredSize() {
        RedisSampler set = sampler("SET", "big", "#{value}");
        set.setValueSize("10240");
        assertOk(set.sample(null));
        SampleResult strlen = run("STRLEN", "big", "");
        assertEquals("(integer) 10240", text(strlen));
    }

    @Test
    void multiKeyCommands() {
        assertOk(run("MSET", "", "a 1 b 2"));
        SampleResult mget = run("MGET", "a b", "");
        assertOk(mget);
        assertEquals("1) \"1\"\n2) \"2\"", text(mget));
        SampleResult del = run("DEL", "a b missing", "");
        assertEquals("(integer) 2", text(del));
    }

    @Test
    void counterAndExpiry() {
        assertEquals("(integer) 1", text(run("INCR", "hits", "")));
        assertEquals("(integer) 11", text(run("INCRBY", "hits", "10")));
        assertEquals("(integer) 1", text(run("EXPIRE", "hits", "60")));
        long ttl = Long.parseLong(text(run("TTL", "hits", "")).replace("(integer) ", ""));
        assertTrue(ttl > 0 && ttl <= 60, "ttl " + ttl);
    }

    @Test
    void hashCommands() {
        assertOk(run("HSET", "profile:1", "name Ada city London"));
        assertEquals("\"Ada\"", text(run("HGET", "profile:1", "name")));
        SampleResult all = run("HGETALL", "profile:1", "");
        assertOk(all);
        assertEquals("1) \"name\"\n2) \"Ada\"\n3) \"city\"\n4) \"London\"", text(all));
    }

    @Test
    void scriptsByShaWithKeyCountInserted() throws Exception {
        String script = "return redis.call('SET', KEYS[1], ARGV[1])";
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                .digest(script.getBytes(StandardCharsets.UTF_8)));
        SampleResult missing = run("EVALSHA", "s", sha + " v");
        assertFalse(missing.isSuccessful());
        assertEquals("NOSCRIPT", missing.getResponseCode());

        assertEquals("\"" + sha + "\"", text(run("SCRIPT LOAD", "", "\"" + script + "\"")));
        assertOk(run("EVALSHA", "s", sha + " v"));
        assertEquals("\"v\"", text(run("GET", "s", "")));
    }

    @Test
    void anyCommandByName() {
        SampleResult config = run("CONFIG GET", "", "maxmemory");
        assertOk(config);
        assertTrue(text(config).contains("\"maxmemory\""), text(config));
        assertOk(run("PING", "", ""));
    }

    @Test
    void unknownCommandFailsWithTheServersMessage() {
        SampleResult r = run("NOSUCHCOMMAND", "k", "");
        assertFalse(r.isSuccessful());
        assertEquals("ERR", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("unknown command"), r.getResponseMessage());
    }

    @Test
    void wrongTypeFailsWithTheServersMessage() {
        assertOk(run("HSET", "h", "f v"));
        SampleResult r = run("GET", "h", "");
        assertFalse(r.isSuccessful());
        assertEquals("WRONGTYPE", r.getResponseCode());
        assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value", r.getResponseMessage());
    }

    @Test
    void nilSucceedsWithCodeNilUnlessNilIsAFailure() {
        SampleResult lenient = run("GET", "absent", "");
        assertTrue(lenient.isSuccessful());
        assertEquals("NIL", lenient.getResponseCode());
        assertEquals("(nil)", text(lenient));

        RedisSampler strict = sampler("GET", "absent", "");
        strict.setNilIsFailure("true");
        SampleResult r = strict.sample(null);
        assertFalse(r.isSuccessful());
        assertEquals("NIL", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("GET absent"), r.getResponseMessage());

        assertOk(run("SET", "present", "x"));
        RedisSampler mget = sampler("MGET", "present absent", "");
        mget.setNilIsFailure("true");
        assertFalse(mget.sample(null).isSuccessful(), "a nil element of MGET counts as nil");
    }

    @Test
    void pipelineSendsNCommandsCountedAsNSamples() {
        RedisSampler load = sampler("SET", "p:#{seq}", "#{value}");
        load.setPipeline("50");
        load.setValueSize("10");
        SampleResult first = load.sample(null);
        assertOk(first);
        assertEquals(50, first.getSampleCount());
        assertTrue(first.getSamplerData().startsWith("pipeline of 50 commands: SET p:0 "), first.getSamplerData());
        SampleResult second = load.sample(null);
        assertTrue(second.getSamplerData().contains("SET p:99 "), "the counter carries on: " + second.getSamplerData());
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            assertEquals(100, jedis.dbSize());
        }

        RedisSampler read = sampler("GET", "p:#{seq:100}", "");
        read.setPipeline("100");
        SampleResult got = read.sample(null);
        assertOk(got);
        assertEquals(100, got.getSampleCount());
        // *2\r\n $3\r\nGET\r\n = 13 bytes, then $3\r\np:N\r\n (9) for p:0..p:9, $4\r\np:NN\r\n (10) for the rest
        assertEquals(100 * 13 + 10 * 9 + 90 * 10, got.getSentBytes());
        // each reply: $10\r\n + 10 bytes + \r\n
        assertEquals(100 * 17, got.getBytesAsLong());
    }

    @Test
    void pipelineWithAFailingCommandFailsNamingIt() {
        assertOk(run("HSET", "p:3", "f v"));
        RedisSampler read = sampler("GET", "p:#{i}", "");
        read.setPipeline("5");
        SampleResult r = read.sample(null);
        assertFalse(r.isSuccessful());
        assertEquals("WRONGTYPE", r.getResponseCode());
        assertTrue(r.getResponseMessage().startsWith("1 of 5 commands failed; first, GET p:3: WRONGTYPE"),
                r.getResponseMessage());
        assertEquals(5, r.getSampleCount());
        assertEquals(5, r.getErrorCount(), "a failed pipeline is 5 failed requests, as the summary counts it, "
                + "not 1 error in 5 on JMeter's console and dashboard");
    }

    @Test
    void responseDataIsTruncatedAtTheLimitButBytesCountTheWholeReply() {
        RedisSampler set = sampler("SET", "big", "#{value}");
        set.setValueSize("5000");
        assertOk(set.sample(null));
        RedisSampler get = sampler("GET", "big", "");
        get.setResponseDataLimit("100");
        SampleResult r = get.sample(null);
        assertTrue(text(r).length() < 200, "response data kept small");
        assertTrue(text(r).contains("truncated at 100"));
        assertEquals(5 + 4 + 5000, r.getBytesAsLong()); // $5000\r\n...\r\n
        get.setResponseDataLimit("0");
        assertEquals(0, get.sample(null).getResponseData().length);
    }

    @Test
    void generatorMetricsCountBytesAndOpenConnections() {
        long sentBefore = org.dsload.core.GeneratorMetrics.registry().counter("dsload.bytes.sent").getCount();
        long receivedBefore = org.dsload.core.GeneratorMetrics.registry().counter("dsload.bytes.received").getCount();
        SampleResult r = run("SET", "m", "value");
        assertOk(r);
        assertEquals(sentBefore + r.getSentBytes(),
                org.dsload.core.GeneratorMetrics.registry().counter("dsload.bytes.sent").getCount());
        assertEquals(receivedBefore + r.getBytesAsLong(),
                org.dsload.core.GeneratorMetrics.registry().counter("dsload.bytes.received").getCount());
        Object open = org.dsload.core.GeneratorMetrics.registry().getGauges().get("dsload.connections.redis").getValue();
        assertTrue(((Integer) open) >= 1, "the connection used is counted, got " + open);
    }
}
