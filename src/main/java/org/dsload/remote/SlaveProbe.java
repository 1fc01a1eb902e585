package org.dsload.remote;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether a slave's RMI registry port accepts TCP connections. A slave's registry lives in the
 * jmeter-server process itself, so a refused or unanswered connection means the process (or its
 * machine) is gone. It does not prove the slave is healthy: a frozen process still accepts.
 */
public final class SlaveProbe {
    private SlaveProbe() {
    }

    /** Empty when the port accepts a connection within the timeout, else why not. */
    public static Optional<String> unreachable(SlaveAddress slave, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(slave.host(), slave.port()), (int) timeout.toMillis());
            return Optional.empty();
        } catch (IOException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return Optional.of(message);
        }
    }
}
