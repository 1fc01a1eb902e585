package org.dsload.redis;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.JMeterRuntime;

/** Builds Redis elements the way a plan would, and runs them in the calling thread. */
final class RedisFixture {
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
}
