package org.dsload.targets;

import java.nio.file.Path;

/**
 * Where a launcher puts a server: its ports, and its folders (data and log). A scratch placement
 * (tests, the main job) uses free ports and a folder per server under {@code target/embedded/}
 * named after its port, and deletes the server's data when it stops. A placement with a root
 * names each server's folder by its role under that root ({@code node-2}); with {@code keepData}
 * the data stays across runs and the servers are told to keep it (Redis appends to a log).
 */
public record Placement(PortChoice ports, Path root, boolean keepData) {

    public static Placement scratch() {
        return new Placement(PortChoice.FREE, null, false);
    }

    /** The folder of one server: {@code <root>/<role>}, or {@code target/embedded/<scratchName>}. */
    public Path folder(String role, String scratchName) {
        return root != null ? root.resolve(role) : Checkout.work(scratchName);
    }
}
