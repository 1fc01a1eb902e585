package org.dsload.run;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * The commands a headless JMeter takes on its UDP port (JMeter's own {@code stoptest.sh} and
 * {@code shutdown.sh} send them): {@code StopTestNow} ends the test at once, {@code Shutdown} once
 * the samples under way are done. JMeter accepts them from loopback only, and ends its test the
 * ordinary way: the slaves of a distributed run are told to stop and hand over their last
 * samples, the results file is closed, the dashboard is made.
 */
final class StopMessage {
    static final String STOP_TEST_NOW = "StopTestNow";
    static final String SHUTDOWN = "Shutdown";

    private StopMessage() {
    }

    /** Sends StopTestNow to a JMeter of this machine listening on {@code port}; false when it cannot be sent. */
    static boolean stopTestNow(int port) {
        return send(STOP_TEST_NOW, port);
    }

    /** Sends Shutdown (the samples under way end first) to a JMeter of this machine listening on {@code port}. */
    static boolean shutdown(int port) {
        return send(SHUTDOWN, port);
    }

    private static boolean send(String command, int port) {
        byte[] bytes = command.getBytes(StandardCharsets.US_ASCII);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
