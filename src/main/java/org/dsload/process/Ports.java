package org.dsload.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * TCP ports: free ones to start a server on, and whether one accepts connections.
 *
 * <p>A free port is one nothing listens on and no other running dsload process has picked
 * ({@link PortReservations}): a server picked a port seconds before it binds it (a JVM starting),
 * and two processes side by side (two {@code dsload serve}, tests beside a serve) must not pick
 * the same one meanwhile.
 */
public final class Ports {
    private static final int ATTEMPTS = 200;

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
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ephemeral(addresses.get(0));
            if (claim(addresses, port, companionOffset)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port" + (companionOffset == 0 ? "" : " pair (p, p+" + companionOffset + ")")
                + " on " + String.join(", ", addresses) + " after " + ATTEMPTS + " attempts");
    }

    /** A port free on every address of the machine (a server binding the wildcard address), reserved. */
    public static int freeEverywhere() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ephemeral(null);
            if (PortReservations.reserve(port)) {
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
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
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
