package org.dsload.serve;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A target {@code dsload serve} has started: the -J properties that point the shipped plans at
 * it, which plans those are, its processes, how to stop it, and the passwords its properties
 * refer to ({@code env:NAME}), each in a file of its own.
 */
public record Served(String name, Map<String, String> properties, List<String> plans, List<ProcessHandle> processes,
        AutoCloseable stopper, List<Secret> secrets) {

    /** The environment variable a property refers to ({@code env:NAME}), and the file that holds its value. */
    public record Secret(String variable, Path file) {
        /** The shell line that sets the variable from the file, without the value ever being printed. */
        public String export() {
            return "export " + variable + "=\"$(cat " + file + ")\"";
        }
    }

    public Served(String name, Map<String, String> properties, List<String> plans, List<ProcessHandle> processes,
            AutoCloseable stopper) {
        this(name, properties, plans, processes, stopper, List.of());
    }

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

    /** Whether every process of the target has ended. */
    public boolean allEnded() {
        return processes.stream().noneMatch(ProcessHandle::isAlive);
    }

    public String pids() {
        return processes.stream().map(p -> Long.toString(p.pid())).collect(Collectors.joining(", "));
    }
}
