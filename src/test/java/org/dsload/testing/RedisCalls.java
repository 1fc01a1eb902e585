package org.dsload.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;

/** What a redis-server itself counted: how many times each command ran, the independent tally of a run. */
public final class RedisCalls {
    private RedisCalls() {
    }

    public static long of(EmbeddedRedis redis, String command) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Matcher m = Pattern.compile("cmdstat_" + command.toLowerCase(java.util.Locale.ROOT) + ":calls=(\\d+)")
                    .matcher(jedis.info("commandstats"));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }

    public static void reset(EmbeddedRedis redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.configResetStat();
        }
    }
}
