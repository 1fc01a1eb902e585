package org.dsload.testing;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Deadline;
import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

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

    /**
     * Waits until the server has run the command that many times (a load under way); fails past the
     * limit.
     */
    public static void await(EmbeddedRedis redis, String command, long count, Duration limit)
            throws InterruptedException {
        if (!Deadline.await(() -> of(redis, command) >= count, limit, Duration.ofMillis(5))) {
            throw new AssertionError("the server ran " + of(redis, command) + " " + command + " within "
                    + limit.toSeconds() + " s, not " + count);
        }
    }

    /**
     * Waits until the server is busy (a DEBUG SLEEP under way): a PING from a connection of its own
     * goes unanswered for 100 ms. False when it answered every time until the limit.
     */
    public static boolean awaitBusy(EmbeddedRedis redis, Duration limit) throws InterruptedException {
        return Deadline.await(() -> {
            try (Jedis jedis = new Jedis(redis.host(), redis.port(), 100)) {
                jedis.ping();
                return false;
            } catch (JedisConnectionException e) {
                return true;
            }
        }, limit, Duration.ofMillis(5));
    }

    public static void reset(EmbeddedRedis redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.configResetStat();
        }
    }
}
