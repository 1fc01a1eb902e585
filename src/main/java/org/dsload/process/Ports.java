package org.dsload.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP ports: free ones to start a server on, and whether one accepts connections.
 *
 * <p>A free port is one nothing listens on and no other running dsload process has picked
 * ({@link PortReservations}): a server picked a port seconds before it binds it (a JVM starting),
 * and two processes side by side (two {@code dsload serve}, tests beside a serve) must not pick
 * the same one meanwhile. It is also picked outside the range of ports the kernel gives outgoing
 * connections ({@code /proc/sys/net/ipv4/ip_local_port_range}): a port from that range can become
 * the local port of any process's new connection in those seconds, and the server's bind then fails.
 */
public final class Ports {
    private static final int ATTEMPTS = 200;
    /** The lowest port picked outside the kernel's range for outgoing connections: well-known services live below. */
    static final int LOWEST = 10000;
    private static final Path LOCAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private Ports() {
    }

    public static int free() {
        return free("127.0.0.1");
    }

    /** A free port on this address, reserved for this process. */
    public static int free(String address) {
        return freeOnAll(List.of(address), 0);
    }

    /**
     * A port free on every one of these addresses (a Cassandra cluster uses the same ports on every
     * node), whose companion {@code port + companionOffset} is free too when the offset is not 0
     * (Redis Cluster's bus port); both are reserved for this process.
     */
    public static int freeOnAll(List<String> addresses, int companionOffset) {
        int[] room = serverPorts(companionOffset, localRange());
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = candidate(room, addresses.get(0));
            if (claim(addresses, port, companionOffset)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port" + (companionOffset == 0 ? "" : " pair (p, p+" + companionOffset + ")")
                + " on " + String.join(", ", addresses) + " after " + ATTEMPTS + " attempts");
    }

    /** A port free on every address of the machine (a server binding the wildcard address), reserved. */
    public static int freeEverywhere() {
        int[] room = serverPorts(0, localRange());
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = candidate(room, null);
            if (bindable((String) null, port) && PortReservations.reserve(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free TCP port after " + ATTEMPTS + " attempts");
    }

    /**
     * Reserves a given port (and its companion) when it is free on every address and no other
     * process has reserved it: the way to get a port back that an earlier run used.
     */
    public static boolean claim(List<String> addresses, int port, int companionOffset) {
        if (port <= 0 || port + companionOffset > 65535) {
            return false;
        }
        if (!bindable(addresses, port) || (companionOffset != 0 && !bindable(addresses, port + companionOffset))) {
            return false;
        }
        if (!PortReservations.reserve(port)) {
            return false;
        }
        return companionOffset == 0 || PortReservations.reserve(port + companionOffset);
    }

    /** Gives back a port this process reserved and no longer uses. */
    public static void release(int port) {
        PortReservations.release(port);
    }

    /** Whether a server could bind the port on this address now (nothing of any process listens there). */
    public static boolean isFree(String address, int port) {
        return bindable(List.of(address), port);
    }

    /**
     * Whether a listening socket could be bound: with SO_REUSEADDR, as servers bind theirs, so that
     * the connections a stopped server left in TIME_WAIT do not count as the port being in use.
     */
    private static boolean bindable(List<String> addresses, int port) {
        for (String address : addresses) {
            if (!bindable(address, port)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #bindable(List, int)} on one address, or on every address when it is null. */
    private static boolean bindable(String address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address == null ? new InetSocketAddress(port) : new InetSocketAddress(InetAddress.getByName(address), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A port to try: a random one of {@code room} ({@link #serverPorts}), or, where that is empty, one
     * the system hands out on the address.
     */
    private static int candidate(int[] room, String address) {
        if (room.length == 0) {
            return ephemeral(address);
        }
        int size = 0;
        for (int i = 0; i < room.length; i += 2) {
            size += room[i + 1] - room[i] + 1;
        }
        int pick = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0;; i += 2) {
            int stretch = room[i + 1] - room[i] + 1;
            if (pick < stretch) {
                return room[i] + pick;
            }
            pick -= stretch;
        }
    }

    /**
     * The stretches of ports, as {low, high} pairs, outside the outgoing-connection range {@code local}
     * (null: unknown) from {@link #LOWEST} up, whose companion {@code port + companionOffset} is outside too.
     */
    static int[] serverPorts(int companionOffset, int[] local) {
        if (local == null) {
            return new int[0];
        }
        int[] below = {LOWEST, local[0] - 1 - companionOffset};
        int[] above = {Math.max(LOWEST, local[1] + 1), 65535 - companionOffset};
        boolean hasBelow = below[1] >= below[0];
        boolean hasAbove = above[1] >= above[0];
        if (hasBelow && hasAbove) {
            return new int[] {below[0], below[1], above[0], above[1]};
        }
        return hasBelow ? below : hasAbove ? above : new int[0];
    }

    /** The kernel's range for outgoing connections' local ports, or null where it cannot be read (procfs: line by line). */
    static int[] localRange() {
        try {
            String[] f = Files.readAllLines(LOCAL_RANGE, StandardCharsets.US_ASCII).get(0).trim().split("\\s+");
            return new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A port the system hands out as free on the address (all addresses when null). */
    private static int ephemeral(String address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(address == null ? new InetSocketAddress(0) : new InetSocketAddress(InetAddress.getByName(address), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + (address == null ? "any address" : address) + ": "
                    + e.getMessage(), e);
        }
    }

    /** Whether host:port accepts a TCP connection within the time limit. */
    public static boolean open(String host, int port, Duration limit) {
        return refusal(host, port, limit).isEmpty();
    }

    /** Whether host:port accepts a TCP connection within half a second. */
    public static boolean open(String host, int port) {
        return open(host, port, Duration.ofMillis(500));
    }

    /** Empty when host:port accepts a connection within the time limit, else why not (refused, timed out ...). */
    public static Optional<String> refusal(String host, int port, Duration limit) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) Math.max(1, limit.toMillis()));
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /** Waits until host:port refuses connections; true when it does within the limit. */
    public static boolean awaitClosed(String host, int port, Duration limit) throws InterruptedException {
        return Deadline.await(() -> !open(host, port), limit, Duration.ofMillis(100));
    }
}
