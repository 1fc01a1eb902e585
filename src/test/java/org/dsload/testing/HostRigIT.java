package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.ProcessTree;
import org.dsload.targets.Checkout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a {@link HostRig} leaves behind (nothing, whether it is closed or its JVM died), and its delayed and lossy links. */
class HostRigIT {
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @BeforeAll
    static void privileges() {
        HostRig.require();
    }

    @Test
    void closingRemovesTheProcessesOfItsHostsEvenThoseThatLeftItsChildrenAndEveryNamespace() throws Exception {
        List<String> made;
        List<Long> pids = new ArrayList<>();
        try (HostRig rig = HostRig.create(2)) {
            made = rig.namespaces();
            assertEquals(3, made.size(), made.toString());
            assertEquals("10.213.1.2", rig.host(1).address());
            Commands.Result addr = rig.host(1).run(LIMIT, "ip", "-4", "-o", "addr", "show", "dev", "eth0");
            assertTrue(addr.output().contains("10.213.1.2/24"), addr.output());
            // one a child of the test, one that left it (as a slave started by a command that has ended)
            Path dir = Checkout.target().resolve("test-results");
            rig.host(0).start(dir, dir.resolve("host-rig-sleep.out"), List.of("sleep", "300"));
            assertEquals(0, rig.host(1).run(LIMIT, "setsid", "-f", "sleep", "300").exit());
            for (String ns : made) {
                pids.addAll(pids(ns));
            }
            assertEquals(2, pids.size(), "a process in each host: " + pids);
        }
        for (long pid : pids) {
            assertTrue(ProcessTree.alive(pid).map(p -> awaitExit(p)).orElse(true), "process " + pid + " still runs");
        }
        List<String> left = new ArrayList<>(HostRig.existingNamespaces());
        left.retainAll(made);
        assertEquals(List.of(), left);
    }

    /** A TCP echo on port 7777 of the host it runs in, for one client. */
    private static final String ECHO = "import socket\n"
            + "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
            + "s.bind(('0.0.0.0', 7777)); s.listen(1); print('listening', flush=True)\n"
            + "c, _ = s.accept(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n"
            + "while True:\n    d = c.recv(100)\n    if not d: break\n    c.sendall(d)\n";
    /** 50 round trips of one byte to the echo at argv[1]; prints the median in microseconds. */
    private static final String ROUND_TRIPS = "import socket, sys, time\n"
            + "c = socket.create_connection((sys.argv[1], 7777), timeout=60)\n"
            + "c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n"
            + "r = []\n"
            + "for i in range(50):\n    t = time.perf_counter(); c.sendall(b'x'); c.recv(10); r.append(time.perf_counter() - t)\n"
            + "r.sort(); print(int(r[25] * 1e6))\n";
    /** Above the script's 60 s socket timeout: a lossy link's retransmissions may take most of it. */
    private static final Duration ROUND_TRIPS_LIMIT = Duration.ofSeconds(90);

    @Test
    void aDelayedLinkHoldsEachPacketEachWayAndLetsGoWhenItEnds() throws Exception {
        try (HostRig rig = HostRig.create(2)) {
            HostRig.Host near = rig.host(0);
            HostRig.Host far = rig.host(1);
            long direct = medianRoundTripMicros(near, far);
            long delayed;
            HostRig.LinkDelay delay = near.delay(far.address(), Duration.ofMillis(20), Duration.ofMillis(2));
            try {
                delayed = medianRoundTripMicros(near, far);
            } finally {
                delay.close();
            }
            long after = medianRoundTripMicros(near, far);
            System.out.println("host rig: median round trip " + direct + " us direct, " + delayed + " us with 20 ms +- 2 ms "
                    + "each way, " + after + " us once ended; " + delay.passed() + " packets delayed");
            // each way 18 to 22 ms: a round trip of 36 ms or more, plus what the machine adds
            assertTrue(delayed >= 36_000 && delayed < 200_000, "median round trip " + delayed + " us");
            assertTrue(direct < 10_000 && after < 10_000, direct + " us, " + after + " us without the delay");
            assertTrue(delay.passed() >= 100, "50 round trips hold 100 packets or more: " + delay.passed());
            assertEquals("", near.iptables("-t", "mangle", "-S", "OUTPUT").output().replace("-P OUTPUT ACCEPT", "").strip(),
                    "the queue's rules are gone");
        }
    }

    @Test
    void aLossyLinkDropsPacketsEachWayAndTcpStillGetsThrough() throws Exception {
        try (HostRig rig = HostRig.create(2)) {
            HostRig.Host near = rig.host(0);
            HostRig.Host far = rig.host(1);
            long dropped;
            long median;
            String counters;
            // 7 %: the 50 round trips cross as some 150 packets (a byte each way, ACKs, retransmissions and the
            // connection's own: 12, 15 and 17 were dropped in three runs at 10 %), and none dropped at all is 0.93^150,
            // one run in 50,000 (at 5 % one in 2,000, and one run dropped none). TCP gets every byte through, but a
            // packet lost again and again waits 0.2, 0.4, 0.8 s... (a SYN 1, 2, 4 s...): the round trips may take a
            // minute (at 10 % with 5 s one run in about 50 timed out). Past 60 s: a SYN or its answer lost 6 times in
            // a row (1 + 2 + ... + 32 s), 0.135^6, one run in 160,000; a byte 9 times (0.2 x 511 s), far rarer
            try (HostRig.LinkLoss loss = near.loss(far.address(), 0.07)) {
                median = medianRoundTripMicros(near, far);
                dropped = loss.dropped();
                // what the rules counted, read only to be shown when none dropped
                counters = dropped > 0 ? "" : near.iptables("-t", "mangle", "-L", "-v", "-x", "-n").output();
            }
            System.out.println("host rig: 7 % of the packets dropped each way: " + dropped + " dropped, median round trip "
                    + median + " us; all 50 round trips made");
            // about ten are dropped, and retransmitted
            assertTrue(dropped > 0, "no packet dropped; the rules of " + near + ":\n" + counters);
            assertEquals("", near.iptables("-t", "mangle", "-S", "OUTPUT").output().replace("-P OUTPUT ACCEPT", "").strip(),
                    "the loss rules are gone");
        }
    }

    private static long medianRoundTripMicros(HostRig.Host from, HostRig.Host to) throws Exception {
        Path dir = Checkout.target().resolve("test-results");
        Path out = dir.resolve("host-rig-echo-" + System.nanoTime() + ".out");
        Process echo = to.start(dir, out, List.of("python3", "-c", ECHO));
        try {
            assertTrue(Deadline.await(() -> HostRig.read(out).contains("listening"), LIMIT, Duration.ofMillis(20)),
                    HostRig.read(out));
            Commands.Result r = from.run(ROUND_TRIPS_LIMIT, "python3", "-c", ROUND_TRIPS, to.address());
            assertEquals(0, r.exit(), r.output());
            return Long.parseLong(r.output().strip());
        } finally {
            ProcessTree.stop(echo.toHandle(), Duration.ofSeconds(5));
            Files.deleteIfExists(out);
        }
    }

    @Test
    void aRigOfAJvmThatDiedIsRemovedByTheNextOne() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        assertTrue(ProcessTree.awaitExit(ended, LIMIT));
        String ns = HostRig.PREFIX + ended.pid() + "-1-h0";
        assertEquals(0, Commands.run(List.of("ip", "netns", "add", ns), LIMIT).exit());
        assertEquals(0, Commands.run(List.of("ip", "netns", "exec", ns, "setsid", "-f", "sleep", "300"), LIMIT).exit());
        List<Long> inside = pids(ns);
        assertEquals(1, inside.size(), inside.toString());

        List<String> removed = HostRig.sweep();

        assertTrue(removed.contains(ns), removed.toString());
        assertFalse(HostRig.existingNamespaces().contains(ns));
        assertTrue(ProcessTree.alive(inside.get(0)).map(p -> awaitExit(p)).orElse(true), "its process still runs");
    }

    private static List<Long> pids(String ns) throws Exception {
        List<Long> pids = new ArrayList<>();
        for (String line : Commands.run(List.of("ip", "netns", "pids", ns), LIMIT).output().split("\\R")) {
            if (line.strip().matches("\\d+")) {
                pids.add(Long.parseLong(line.strip()));
            }
        }
        return pids;
    }

    private static boolean awaitExit(ProcessHandle p) {
        try {
            return ProcessTree.awaitExit(p, LIMIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
