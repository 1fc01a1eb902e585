package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;

import org.dsload.process.Ports;
import org.junit.jupiter.api.Test;

class SlaveProbeTest {
    private static final String PORT = "its RMI registry port 1099";

    @Test
    void anUnreachableSlaveIsNamedWithItsPortAndWhatTheFailurePointsAt() {
        assertEquals("its RMI registry port 1099 did not answer within 3 s (Connect timed out): a firewall drops "
                + "connections to it, or the host is down", SlaveProbe.explained(PORT, "Connect timed out",
                        Duration.ofSeconds(3)));
        assertEquals("its RMI registry port 1099 refused the connection (Connection refused): no slave listens there",
                SlaveProbe.explained(PORT, "Connection refused", Duration.ofSeconds(3)));
        assertEquals("its RMI registry port 1099: No route to host",
                SlaveProbe.explained(PORT, "No route to host", Duration.ofSeconds(3)));
    }

    @Test
    void aClosedPortOnThisMachineIsARefusal() throws Exception {
        int port = Ports.freeEverywhere();
        Optional<String> why = SlaveProbe.unreachable(new SlaveAddress("127.0.0.1", port), Duration.ofSeconds(3));
        assertTrue(why.orElseThrow().startsWith("its RMI registry port " + port + " refused the connection"),
                why.toString());
    }
}
