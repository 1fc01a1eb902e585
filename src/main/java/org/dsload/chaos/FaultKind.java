package org.dsload.chaos;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What a fault does to its target. Network kinds act between the clients and one node. */
public enum FaultKind {
    DELAY(true, "adds latency: delay=200ms"),
    BANDWIDTH(true, "limits throughput: rate=1mbit"),
    FREEZE(true, "nothing passes, connections stay open"),
    RESET(true, "connections are cut with a TCP reset"),
    LOSS(true, "packets (proxy: connections) are dropped: loss=50%"),
    KILL(false, "SIGKILL the node's process; reverted by starting it again"),
    PAUSE(false, "SIGSTOP the node's process; reverted by SIGCONT"),
    RESTART(false, "stop the node's process and start it again"),
    CPU(false, "busy loops on percent=50 of the host's cores"),
    MEMORY(false, "holds percent=50 of the host's RAM"),
    DISK(false, "fills the filesystem of the node's data directory");

    private final boolean network;
    private final String help;

    FaultKind(boolean network, String help) {
        this.network = network;
        this.help = help;
    }

    public boolean network() {
        return network;
    }

    public String help() {
        return help;
    }

    /** The name used in plans, labels and commands: lower case. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FaultKind parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        for (FaultKind k : values()) {
            if (k.name().equals(t)) {
                return k;
            }
        }
        if (t.equals("CPU_HOG") || t.equals("CPU-HOG")) {
            return CPU;
        }
        if (t.equals("MEMORY_HOG") || t.equals("MEMORY-HOG") || t.equals("MEM")) {
            return MEMORY;
        }
        if (t.equals("DISK_FULL") || t.equals("DISK-FULL")) {
            return DISK;
        }
        throw new IllegalArgumentException("unknown fault kind '" + text.trim() + "' (kinds: " + names() + ")");
    }

    public static String names() {
        return Arrays.stream(values()).map(FaultKind::id).collect(Collectors.joining(", "));
    }
}
