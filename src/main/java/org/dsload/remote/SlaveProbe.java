package org.dsload.remote;

import java.time.Duration;
import java.util.Optional;

import org.dsload.process.Ports;

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
        return Ports.refusal(slave.host(), slave.port(), timeout);
    }
}
