package org.dsload.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Processes stopped by PID with their descendants, commands run to their end, servers that end before they are ready. */
class ProcessTreeTest {
    @TempDir
    Path dir;

    @Test
    void stopEndsTheWholeTreeEvenAChildThatIgnoresSigterm() throws Exception {
        Process shell = new ProcessBuilder("sh", "-c", "sleep 300 & (trap '' TERM; exec sleep 301) & wait").start();
        assertTrue(Deadline.await(() -> shell.descendants().count() == 2, Duration.ofSeconds(10), Duration.ofMillis(20)));
        List<ProcessHandle> tree = ProcessTree.of(shell.toHandle());
        assertEquals(shell.pid(), tree.get(tree.size() - 1).pid(), "the root last, after its children");
        assertTrue(ProcessTree.stop(shell.toHandle(), Duration.ofMillis(300)));
        for (ProcessHandle p : tree) {
            assertFalse(p.isAlive(), "pid " + p.pid() + " still runs");
        }
    }

    @Test
    void aPidIsTheRecordedProcessOnlyWhileItsStartTimeMatches() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "300").start();
        try {
            String start = ProcessTree.startInstant(sleep.pid());
            assertTrue(ProcessTree.same(sleep.pid(), start).isPresent());
            assertTrue(ProcessTree.same(sleep.pid(), "1970-01-01T00:00:00Z").isEmpty(), "another process under a reused pid");
        } finally {
            assertTrue(ProcessTree.kill(sleep.toHandle()));
        }
        assertTrue(ProcessTree.same(sleep.pid(), null).isEmpty());
    }

    @Test
    void aCommandRunsToItsEndWithItsOutputAndEnvironmentOrIsKilledAtItsLimit() throws Exception {
        Commands.Result r = Commands.run(List.of("sh", "-c", "echo \"$GREETING\"; echo second >&2; exit 3"),
                Map.of("GREETING", "hello"), Duration.ofSeconds(30));
        assertEquals(3, r.exit());
        assertEquals("hello", r.firstLine());
        assertTrue(r.output().contains("second"), r.output());
        IOException e = assertThrows(IOException.class, () -> Commands.run(List.of("sleep", "30"), Duration.ofMillis(300)));
        assertTrue(e.getMessage().contains("ran past its limit"), e.getMessage());
    }

    @Test
    void aServerThatEndsBeforeItIsReadyFailsTheWaitWithItsLastWords() {
        ManagedProcess broken = ManagedProcess.start("broken", List.of("sh", "-c", "echo 'cannot bind'; exit 3"), dir,
                dir.resolve("broken.log"));
        ManagedProcess.Exited e = assertThrows(ManagedProcess.Exited.class,
                () -> broken.awaitPort("127.0.0.1", Ports.free(), Duration.ofSeconds(20)));
        assertTrue(e.getMessage().startsWith("broken exited (code 3) while waiting for port 127.0.0.1:"), e.getMessage());
        assertTrue(e.logTail().contains("cannot bind"), e.logTail());
    }

    @Test
    void aServerRunsInASessionOfItsOwnUnderItsOwnPid() throws Exception {
        try (ManagedProcess sleep = ManagedProcess.start("sleep", List.of("sleep", "300"), dir, dir.resolve("sleep.log"))) {
            assertTrue(sleep.isAlive());
            // the server starts through setsid, which becomes the server by exec under the same pid
            Path statFile = Path.of("/proc", Long.toString(sleep.pid()), "stat");
            Deadline.await(() -> {
                try {
                    return Files.readString(statFile, StandardCharsets.US_ASCII).contains("(sleep)");
                } catch (IOException gone) {
                    return false;
                }
            }, Duration.ofSeconds(10), Duration.ofMillis(10));
            String stat = Files.readString(statFile, StandardCharsets.US_ASCII);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields after the state: ppid, process group, session
            assertEquals(Long.toString(sleep.pid()), fields[3], "the session is the server's own");
            assertTrue(stat.contains("(sleep)"), "the pid is the server's, not a wrapper's: " + stat);
        }
    }

    @Test
    void deleteTreeRemovesAFolderAndIsQuietWhenItIsGone() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("a/b/c"));
        Files.writeString(tree.resolve("f"), "x");
        Folders.deleteTree(dir.resolve("a"));
        assertFalse(Files.exists(dir.resolve("a")));
        Folders.deleteTree(dir.resolve("a"));
    }
}
