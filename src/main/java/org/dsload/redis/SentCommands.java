package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import redis.clients.jedis.CommandArguments;

/**
 * The commands a connection's samplers sent, by name as Redis's commandstats names them
 * ({@code get}, {@code config}), for the cross-check against the servers' own counts.
 */
public final class SentCommands {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** Counts {@code n} commands like {@code command} (a pipeline sends one command n times). */
    public void add(CommandArguments command, int n) {
        String name = new String(command.getCommand().getRaw(), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        counts.computeIfAbsent(name, k -> new LongAdder()).add(n);
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }
}
