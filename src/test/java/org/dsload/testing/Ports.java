package org.dsload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback addresses. */
public final class Ports {
    private Ports() {
    }

    public static int free() {
        return free("127.0.0.1");
    }

    public static int free(String address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + address, e);
        }
    }

    public static boolean isFree(String address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A free port p whose companion p + offset is free too (Redis Cluster's bus port, for one). */
    public static int freeWithCompanion(String address, int offset) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = free(address);
            if (port + offset <= 65535 && isFree(address, port + offset)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair (p, p+" + offset + ") on " + address);
    }
}
