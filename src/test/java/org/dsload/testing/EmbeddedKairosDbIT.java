package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The launcher itself: a KairosDB on H2 that starts, serves on its own port only, and is gone after close. */
class EmbeddedKairosDbIT {

    @Test
    void startsOnH2ServesOnItsPortAndStopsByPid() throws Exception {
        long pid;
        try (EmbeddedKairosDb kairos = EmbeddedKairosDb.start()) {
            pid = kairos.pid();
            System.out.printf("dsload: KairosDB on H2 ready in %.1f s, %d MiB resident%n",
                    kairos.startTime().toMillis() / 1000.0, kairos.residentBytes() >> 20);
            assertEquals("h2", kairos.datastore());
            assertTrue(kairos.call("GET", "/api/v1/version", null).body().contains("KairosDB"));
            long stamp = System.currentTimeMillis() - 60_000;
            String points = "[{\"name\":\"dsload.it.launcher\",\"tags\":{\"host\":\"a\"},\"datapoints\":[[" + stamp
                    + ",1],[" + (stamp + 1) + ",2],[" + (stamp + 2) + ",3]]}]";
            assertEquals(204, kairos.call("POST", "/api/v1/datapoints", points).statusCode());
            long deadline = System.nanoTime() + 10_000_000_000L;
            long count;
            do {
                count = kairos.count("dsload.it.launcher", stamp, stamp + 2);
            } while (count != 3 && System.nanoTime() < deadline && sleep());
            assertEquals(3, count);
            // Telnet (4242 by default) is off; the HTTP API listens on its free port.
            assertFalse(listensOn(pid, 4242), "telnet listener left on");
            assertTrue(listensOn(pid, kairos.port()));
            assertTrue(Files.isRegularFile(kairos.log()));
            assertTrue(kairos.log().startsWith(Build.target()));
        }
        Optional<ProcessHandle> left = ProcessHandle.of(pid);
        assertTrue(left.isEmpty() || !left.get().isAlive(), "KairosDB's JVM " + pid + " still runs after close");
    }

    private static boolean sleep() {
        ManagedProcess.sleep(200);
        return true;
    }

    /** Whether the process holds a listening socket on the port (from /proc: its inodes against /proc/net/tcp). */
    private static boolean listensOn(long pid, int port) throws Exception {
        String hex = String.format(":%04X ", port);
        java.util.Set<String> inodes = new java.util.HashSet<>();
        try (var fds = Files.list(java.nio.file.Path.of("/proc/" + pid + "/fd"))) {
            for (var fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (java.io.IOException e) {
                    // closed meanwhile
                }
            }
        }
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            for (String line : Files.readAllLines(java.nio.file.Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(hex.trim()) && f[3].equals("0A") && inodes.contains(f[9])) {
                    return true;
                }
            }
        }
        return false;
    }
}
