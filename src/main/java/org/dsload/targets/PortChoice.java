package org.dsload.targets;

import java.util.List;

import org.dsload.process.Ports;

/**
 * How a launcher gets each port of a server, by a name stable across runs ({@code
 * zookeeper.2.election}): a free one, or (for a target served with a data folder) the one it had
 * last time when that is still free.
 */
@FunctionalInterface
public interface PortChoice {
    /** Free ports, reserved for this process ({@link Ports}). */
    PortChoice FREE = (name, addresses, companionOffset) -> Ports.freeOnAll(addresses, companionOffset);

    /**
     * A port free on every address, with {@code port + companionOffset} free too when the offset is
     * not 0, reserved for this process.
     */
    int pick(String name, List<String> addresses, int companionOffset);

    default int pick(String name, String address) {
        return pick(name, List.of(address), 0);
    }
}
