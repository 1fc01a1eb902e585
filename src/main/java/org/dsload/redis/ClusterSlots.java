package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Which node serves each of the 16384 slots of a Redis Cluster, as CLUSTER SLOTS told the
 * connection element's client at one moment. A thread's own connections start from it and follow
 * MOVED replies from there.
 */
final class ClusterSlots {
    static final int SLOTS = 16384;

    private final String[] owners = new String[SLOTS];

    private ClusterSlots() {
    }

    /** Asks one node of the cluster through the Jedis cluster client. */
    static ClusterSlots read(UnifiedJedis jedis, String fallbackHost) {
        Object reply = jedis.executeCommand(new CommandArguments(Protocol.Command.CLUSTER).add("SLOTS"));
        ClusterSlots slots = new ClusterSlots();
        if (!(reply instanceof List<?> ranges)) {
            throw new IllegalStateException("CLUSTER SLOTS answered " + reply);
        }
        for (Object range : ranges) {
            List<?> r = (List<?>) range;
            int from = ((Long) r.get(0)).intValue();
            int to = ((Long) r.get(1)).intValue();
            List<?> primary = (List<?>) r.get(2);
            String host = new String((byte[]) primary.get(0), StandardCharsets.UTF_8);
            if (host.isEmpty() || host.equals("?")) {
                host = fallbackHost; // the node we asked, which does not know its own address
            }
            String address = host + ":" + primary.get(1);
            for (int slot = from; slot <= to && slot < SLOTS; slot++) {
                slots.owners[slot] = address;
            }
        }
        return slots;
    }

    /** host:port of the node serving a slot, or null when no node serves it. */
    String owner(int slot) {
        return owners[slot];
    }

    /** The slot of a command: that of its first key (hash tags as Jedis reads them), or -1 without keys. */
    static int slotOf(CommandArguments command) {
        List<Object> keys = command.getKeys();
        if (keys.isEmpty()) {
            return -1;
        }
        Object key = keys.get(0);
        if (key instanceof byte[] raw) {
            return JedisClusterCRC16.getSlot(raw);
        }
        if (key instanceof redis.clients.jedis.args.Rawable rawable) {
            return JedisClusterCRC16.getSlot(rawable.getRaw());
        }
        return JedisClusterCRC16.getSlot(String.valueOf(key));
    }
}
