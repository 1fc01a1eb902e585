package org.dsload.redis;

import java.nio.charset.StandardCharsets;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.RedisCalls;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.commands.ProtocolCommand;

/** Builds Redis elements the way a plan would, and runs them in the calling thread. */
final class RedisFixture {
    /** DEBUG (SLEEP ...), a command Jedis has no method for. */
    static final ProtocolCommand DEBUG = () -> "DEBUG".getBytes(StandardCharsets.US_ASCII);

    private RedisFixture() {
    }

    static RedisConnection connection(String hosts) {
        JMeterRuntime.init();
        RedisConnection c = new RedisConnection();
        c.setName("redis");
        c.setVariableName("redis");
        c.setHosts(hosts);
        return c;
    }

    static RedisSampler sampler(String command, String keys, String arguments) {
        JMeterRuntime.init();
        RedisSampler s = new RedisSampler();
        s.setName(command.toLowerCase());
        s.setConnection("redis");
        s.setCommand(command);
        s.setKeys(keys);
        s.setArguments(arguments);
        return s;
    }

    static SampleResult run(String command, String keys, String arguments) {
        return sampler(command, keys, arguments).sample(null);
    }

    static String text(SampleResult r) {
        return r.getResponseDataAsString();
    }

    /** A server holding key:0 ... key:(keys-1), 100 bytes each, its command counts reset. */
    static EmbeddedRedis loaded(int keys) {
        EmbeddedRedis redis = EmbeddedRedis.start();
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline pipe = jedis.pipelined();
            for (int i = 0; i < keys; i++) {
                pipe.set("key:" + i, "v".repeat(100));
            }
            pipe.sync();
        }
        RedisCalls.reset(redis);
        return redis;
    }
}
