package org.dsload.redis;

import org.dsload.core.DsloadBeanInfo;

public class RedisSamplerBeanInfo extends DsloadBeanInfo {

    public RedisSamplerBeanInfo() {
        super(RedisSampler.class);
        createPropertyGroup("target", new String[] {"connection"});
        createPropertyGroup("request", new String[] {"command", "keys", "arguments", "valueSize", "pipeline", "inFlight",
            "requestsPerSample"});
        createPropertyGroup("response", new String[] {"nilIsFailure", "responseDataLimit", "stopOnUnrecoverable"});

        text("connection", "redis");
        choice("command", "GET", "GET", "SET", "MGET", "MSET", "DEL", "EXISTS", "INCR", "INCRBY", "EXPIRE",
                "TTL", "HGET", "HSET", "HGETALL", "HMGET", "LPUSH", "RPOP", "LRANGE", "SADD", "SMEMBERS",
                "ZADD", "ZRANGE", "EVAL", "EVALSHA", "PING");
        text("keys", "key:#{seq}");
        text("arguments", "");
        text("valueSize", "100");
        text("pipeline", "1");
        text("inFlight", "1");
        text("requestsPerSample", "1");
        flag("nilIsFailure", false);
        text("responseDataLimit", "1024");
        flag("stopOnUnrecoverable", true);
    }
}
