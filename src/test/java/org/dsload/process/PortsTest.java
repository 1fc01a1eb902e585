package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Free ports are free and reserved across processes; a port probe tells an open port from a closed one. */
class PortsTest {

    @Test
    void freePortsCanBeBoundAndAreNeverHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = Ports.free();
            assertTrue(seen.add(port), "port " + port + " handed out twice");
            assertTrue(Ports.isFree("127.0.0.1", port));
        }
    }

    @Test
    void freePortsAndTheirCompanionsLieOutsideTheKernelsRangeForOutgoingConnections() {
        int[] range = Ports.localRange();
        org.junit.jupiter.api.Assumptions.assumeTrue(range != null, "Linux only");
        int low = range[0];
        int high = range[1];
        for (int i = 0; i < 20; i++) {
            int port = Ports.free();
            assertTrue(port < low || port > high, port + " is in " + low + "-" + high);
            int pair = Ports.freeOnAll(List.of("127.0.0.1"), 10000);
            assertTrue(pair + 10000 < low || pair > high, pair + " or its companion is in " + low + "-" + high);
            int everywhere = Ports.freeEverywhere();
            assertTrue(everywhere < low || everywhere > high, everywhere + " is in " + low + "-" + high);
        }
    }

    @Test
    void theStretchesOutsideTheRangeLeaveRoomForTheCompanionAndAnEmptyStretchOut() {
        assertEquals(List.of(10000, 32767, 61000, 65535), asList(Ports.serverPorts(0, new int[] {32768, 60999})));
        assertEquals(List.of(10000, 22767), asList(Ports.serverPorts(10000, new int[] {32768, 60999})));
        assertEquals(List.of(50001, 65535), asList(Ports.serverPorts(0, new int[] {1024, 50000})));
        assertEquals(List.of(), asList(Ports.serverPorts(0, new int[] {1024, 65535})));
        assertEquals(List.of(), asList(Ports.serverPorts(0, null)), "unknown: the system's choice");
    }

    private static List<Integer> asList(int[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }

    @Test
    void aPortAnotherRunningProcessPickedIsNotGivenHereUntilThatProcessEnds() throws Exception {
        try (ChildJvm other = ChildJvm.start(Holder.class)) {
            int port = Integer.parseInt(other.readLine());
            assertTrue(Ports.isFree("127.0.0.1", port), "nothing listens on it yet");
            assertFalse(Ports.claim(List.of("127.0.0.1"), port, 0), "reserved by the other process");
            other.endInput();
            assertEquals(0, other.process().waitFor());
            assertTrue(Ports.claim(List.of("127.0.0.1"), port, 0), "free once its owner has ended");
            assertFalse(Ports.claim(List.of("127.0.0.1"), port, 0), "and now this process's");
        }
    }

    @Test
    void aReleasedPortCanBeClaimedAgain() {
        int port = Ports.free();
        assertFalse(Ports.claim(List.of("127.0.0.1"), port, 0), "reserved by this process");
        Ports.release(port);
        assertTrue(Ports.claim(List.of("127.0.0.1"), port, 0), "given back");
    }

    @Test
    void aPairIsFreeOnEveryAddressAndBothPortsAreReserved() {
        int port = Ports.freeOnAll(List.of("127.0.0.1", "127.0.0.2"), 10000);
        assertTrue(Ports.isFree("127.0.0.2", port) && Ports.isFree("127.0.0.1", port + 10000));
        assertFalse(Ports.claim(List.of("127.0.0.1"), port + 10000, 0), "the companion is reserved too");
    }

    @Test
    void aProbeTellsAListeningPortFromAClosedOneAndSaysWhy() throws Exception {
        int port = Ports.free();
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertTrue(Ports.open("127.0.0.1", port));
            assertFalse(Ports.isFree("127.0.0.1", port));
            assertFalse(Ports.claim(List.of("127.0.0.1"), port, 0), "a port something listens on is not claimed");
        }
        assertTrue(Ports.awaitClosed("127.0.0.1", port, Duration.ofSeconds(5)));
        assertTrue(Ports.refusal("127.0.0.1", port, Duration.ofSeconds(1)).orElseThrow().contains("refused"));
    }

    /** Reserves a port, prints it and holds it until its input ends. */
    public static final class Holder {
        public static void main(String[] args) throws IOException {
            System.out.println(Ports.free());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the reservation
            }
        }
    }
}
