package org.dsload.serve;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A target {@code dsload serve} has started: the -J properties that point the shipped plans at
 * it, which plans those are, its processes, and how to stop it.
 */
public record Served(String name, Map<String, String> properties, List<String> plans, List<ProcessHandle> processes,
        AutoCloseable stopper) {

    /** {@code redis: -Jhosts=127.0.0.1:40123}, the line serve prints. */
    public String line() {
        return name + ": " + jOptions();
    }

    /** The properties as JMeter's command line takes them: {@code -Jhosts=127.0.0.1:40123 -J...}. */
    public String jOptions() {
        return properties.entrySet().stream().map(e -> "-J" + e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    /** The first process of the target that is no longer running, if one has ended. */
    public ProcessHandle ended() {
        return processes.stream().filter(p -> !p.isAlive()).findFirst().orElse(null);
    }

    public String pids() {
        return processes.stream().map(p -> Long.toString(p.pid())).collect(Collectors.joining(", "));
    }
}
