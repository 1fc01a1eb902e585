package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.process.Commands;
import org.dsload.process.ProcessTree;
import org.dsload.targets.Checkout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a {@link HostRig} leaves behind: nothing, whether it is closed or its JVM died. */
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
