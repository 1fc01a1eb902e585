package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.commands.ProtocolCommand;

/**
 * The commands a connection's samplers sent, by name as Redis's commandstats names them
 * ({@code get}, {@code config}), for the cross-check against the servers' own counts.
 */
public final class SentCommands {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    /**
     * The counter of each of Jedis's command constants, found without making the command's name
     * on every sample. Commands Jedis does not know are objects of a sampler's compiled fields,
     * made anew when the fields change: those are counted by name.
     */
    private final Map<Protocol.Command, LongAdder> known = new ConcurrentHashMap<>();

    /** Counts {@code n} commands like {@code command} (a pipeline sends one command n times). */
    public void add(CommandArguments command, int n) {
        ProtocolCommand sent = command.getCommand();
        LongAdder counter = sent instanceof Protocol.Command constant ? known.get(constant) : null;
        if (counter == null) {
            counter = counts.computeIfAbsent(new String(sent.getRaw(), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT),
                    name -> new LongAdder());
            if (sent instanceof Protocol.Command constant) {
                known.put(constant, counter);
            }
        }
        counter.add(n);
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
