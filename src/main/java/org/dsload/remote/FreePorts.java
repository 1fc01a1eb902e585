package org.dsload.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * TCP ports free on every address. A slave with RMI over SSL binds its own address only, but
 * without SSL it binds all of them, so a port is taken only if it is free everywhere.
 */
final class FreePorts {
    private FreePorts() {
    }

    static int any() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port", e);
        }
    }
}
