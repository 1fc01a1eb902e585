package org.dsload.targets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.dsload.process.Folders;
import org.dsload.process.ProcessTree;

/**
 * A folder in memory ({@code /dev/shm}, a tmpfs on Linux) for a server's write-ahead log when its
 * data is not kept: a sync there costs nothing, so a server that syncs its log on every write
 * (InfluxDB 1.x has no setting to stop it) is timed by its own work, not by a disk this machine
 * shares with everything else. Named {@code dsload-<pid>-<name>} after the JVM that made it; a
 * folder whose JVM is gone (killed before it could delete it) is deleted by the next one made.
 */
public record MemoryFolder(Path path) implements AutoCloseable {
    static final Path SHM = Path.of("/dev/shm");
    private static final String PREFIX = "dsload-";

    /** A fresh folder in memory, or empty where the machine has no writable {@code /dev/shm}. */
    public static Optional<MemoryFolder> create(String name) {
        return create(SHM, name);
    }

    static Optional<MemoryFolder> create(Path root, String name) {
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            return Optional.empty();
        }
        deleteOrphans(root);
        Path dir = root.resolve(PREFIX + ProcessHandle.current().pid() + "-" + name);
        try {
            Folders.deleteTree(dir);
            Files.createDirectories(dir);
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(new MemoryFolder(dir));
    }

    /** Folders of JVMs no longer running. */
    static void deleteOrphans(Path root) {
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path folder : folders) {
                String rest = folder.getFileName().toString().substring(PREFIX.length());
                int dash = rest.indexOf('-');
                long pid;
                try {
                    pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ProcessTree.alive(pid).isEmpty()) {
                    Folders.deleteTree(folder);
                }
            }
        } catch (IOException e) {
            // another JVM deleting the same orphan, or a folder not ours: it stays for the next sweep
        }
    }

    @Override
    public void close() {
        try {
            Folders.deleteTree(path);
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + path, e);
        }
    }
}
