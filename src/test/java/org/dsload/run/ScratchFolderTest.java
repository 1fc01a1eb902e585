package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.process.ProcessTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchFolderTest {

    private static Path folder(Path tmp, String name, String owner) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(ScratchFolder.PREFIX + name));
        Files.writeString(dir.resolve("run.properties"), "cassandra_password=literal\n", StandardCharsets.UTF_8);
        if (owner != null) {
            Files.writeString(dir.resolve(ScratchFolder.OWNER), owner, StandardCharsets.UTF_8);
        }
        return dir;
    }

    @Test
    void theFoldersOfRunnersThatAreGoneAreDeletedAndTheOthersLeft(@TempDir Path tmp) throws Exception {
        Process ended = new ProcessBuilder("sleep", "30").start();
        String endedOwner = ProcessTree.owner(ended.pid());
        ended.destroyForcibly().waitFor();
        Path killed = folder(tmp, "killed", endedOwner);
        Path running = folder(tmp, "running", ProcessTree.owner(ProcessHandle.current().pid()));
        // this pid, but another process's start: the pid was reused since the owner ended
        Path reused = folder(tmp, "reused", ProcessHandle.current().pid() + " 2001-01-01T00:00:00Z");
        Path unnamed = folder(tmp, "unnamed", null);
        Path garbled = folder(tmp, "garbled", "not an owner");
        Path other = Files.createDirectory(tmp.resolve("not-dsload"));
        Files.writeString(other.resolve(ScratchFolder.OWNER), endedOwner, StandardCharsets.UTF_8);

        assertEquals(2, ScratchFolder.sweep(tmp));
        assertFalse(Files.exists(killed));
        assertFalse(Files.exists(reused));
        assertTrue(Files.exists(running.resolve("run.properties")));
        assertTrue(Files.exists(unnamed) && Files.exists(garbled) && Files.exists(other));
    }

    @Test
    void aNewFolderNamesThisProcessAsItsOwnerAndOnlyItsOwnerReadsIt() throws Exception {
        Path scratch = ScratchFolder.create();
        try {
            assertEquals(ProcessTree.owner(ProcessHandle.current().pid()),
                    Files.readString(scratch.resolve(ScratchFolder.OWNER), StandardCharsets.UTF_8));
            assertTrue(scratch.getFileName().toString().startsWith(ScratchFolder.PREFIX));
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(scratch)));
            ScratchFolder.sweep(scratch.getParent());
            assertTrue(Files.exists(scratch), "a running owner's folder is no stale one");
        } finally {
            org.dsload.process.Folders.deleteTree(scratch);
        }
    }
}
