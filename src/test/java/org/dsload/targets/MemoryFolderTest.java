package org.dsload.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryFolderTest {

    @Test
    void aFolderIsNamedAfterItsJvmAndDeletedOnClose(@TempDir Path root) throws IOException {
        MemoryFolder folder = MemoryFolder.create(root, "influxdb-wal-8086").orElseThrow();
        assertEquals("dsload-" + ProcessHandle.current().pid() + "-influxdb-wal-8086",
                folder.path().getFileName().toString());
        Files.writeString(folder.path().resolve("_00001.wal"), "points");
        Files.createDirectories(folder.path().resolve("test/autogen"));
        folder.close();
        assertFalse(Files.exists(folder.path()));
    }

    @Test
    void foldersOfJvmsNoLongerRunningAreDeletedWhenTheNextIsMade(@TempDir Path root) throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        Path orphan = Files.createDirectories(root.resolve("dsload-" + done.pid() + "-influxdb-wal-1"));
        Files.writeString(orphan.resolve("_00001.wal"), "points");
        Path live = Files.createDirectories(root.resolve("dsload-" + ProcessHandle.current().pid() + "-other"));
        Path notOurs = Files.createDirectories(root.resolve("dsload-cache"));
        Path other = Files.createDirectories(root.resolve("postgres"));

        try (MemoryFolder made = MemoryFolder.create(root, "influxdb-wal-2").orElseThrow()) {
            assertTrue(Files.isDirectory(made.path()));
        }
        assertFalse(Files.exists(orphan), "the folder of a JVM that has ended");
        assertTrue(Files.isDirectory(live), "a running JVM's folder stays");
        assertTrue(Files.isDirectory(notOurs) && Files.isDirectory(other), "folders not named by a pid stay");
    }

    @Test
    void noFolderWhereTheMachineHasNoMemoryFileSystem(@TempDir Path root) {
        assertEquals(Optional.empty(), MemoryFolder.create(root.resolve("absent"), "influxdb-wal-3"));
    }
}
