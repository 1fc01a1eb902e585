package org.dsload.redis;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.Errors;
import org.dsload.gauges.GaugeSource;
import org.dsload.redis.report.RedisServerSection;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One Redis server's {@code INFO all}, on a connection of its own (never one of the load's pool,
 * which may be exhausted exactly when the gauges matter). A connection that fails is dropped and
 * opened again at the next poll; an error reply (no permission for INFO, a wrong password, a
 * Redis-protocol store without INFO) is a refusal.
 */
final class RedisInfoSource implements GaugeSource {
    private static final String CMDSTAT = "cmdstat_";

    private final HostAndPort node;
    private final JedisClientConfig config;
    private Jedis jedis;

    RedisInfoSource(HostAndPort node, JedisClientConfig config) {
        this.node = node;
        this.config = config;
    }

    @Override
    public String name() {
        return node.toString();
    }

    @Override
    public List<Reading> read(long now) throws Refused, IOException {
        String info;
        try {
            if (jedis == null) {
                jedis = new Jedis(node, config);
            }
            info = jedis.info("all");
        } catch (JedisDataException e) {
            close();
            throw new Refused(Errors.sentence(e.getMessage()));
        } catch (RuntimeException e) {
            close();
            throw new IOException(Errors.describe(e), e);
        }
        return List.of(new Reading(name(), now, parse(info)));
    }

    /** INFO's {@code key:value} lines, and the calls of every command in one {@value RedisServerSection#COMMANDSTATS} value. */
    static Map<String, String> parse(String info) {
        Map<String, String> values = new HashMap<>();
        StringBuilder calls = new StringBuilder();
        for (String raw : info.split("\n")) {
            String line = raw.strip();
            int colon = line.indexOf(':');
            if (line.isEmpty() || line.startsWith("#") || colon <= 0) {
                continue;
            }
            String key = line.substring(0, colon);
            String value = line.substring(colon + 1);
            if (key.startsWith(CMDSTAT)) {
                String count = field(value, "calls");
                if (count != null) {
                    calls.append(calls.length() == 0 ? "" : " ").append(key.substring(CMDSTAT.length())).append('=')
                            .append(count);
                }
            } else {
                values.put(key, value);
            }
        }
        values.put(RedisServerSection.COMMANDSTATS, calls.toString());
        return values;
    }

    /** {@code calls} of {@code calls=2,usec=8,...}. */
    private static String field(String list, String name) {
        for (String part : list.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).equals(name)) {
                return part.substring(eq + 1);
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (RuntimeException e) {
                // the connection is broken already
            }
            jedis = null;
        }
    }
}
