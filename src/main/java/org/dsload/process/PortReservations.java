package org.dsload.process;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports picked by running dsload processes, one small file per port in a folder every process of
 * the user shares ({@code <tmp>/dsload-ports-<user>/<port>}), holding the owner's PID and start
 * time. A reservation lasts as long as its owner runs: a file whose owner has ended is taken over.
 * A lock file makes the look and the write one step for all processes. Files of this process are
 * deleted when it exits; those of a process that was killed are taken over when met.
 */
final class PortReservations {
    private static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"),
            "dsload-ports-" + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_"));
    private static final String OWNER = ProcessTree.owner(ProcessHandle.current().pid());
    private static final Set<Integer> OWN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(PortReservations::releaseAll, "dsload-port-reservations"));
    }

    private PortReservations() {
    }

    /** Reserves the port for this process; false when this or another running process already has. */
    static synchronized boolean reserve(int port) {
        if (OWN.contains(port)) {
            return false;
        }
        try {
            Files.createDirectories(DIR);
            try (FileChannel lockFile = FileChannel.open(DIR.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                 FileLock lock = lockFile.lock()) {
                Path file = DIR.resolve(Integer.toString(port));
                if (Files.isRegularFile(file) && ownerRuns(Files.readString(file, StandardCharsets.US_ASCII).strip())) {
                    return false;
                }
                Files.writeString(file, OWNER + "\n", StandardCharsets.US_ASCII);
                OWN.add(port);
                return true;
            }
        } catch (IOException e) {
            // without the shared folder, ports are at least not given twice within this process
            OWN.add(port);
            return true;
        }
    }

    private static boolean ownerRuns(String owner) {
        return ProcessTree.Owner.parse(owner).map(ProcessTree.Owner::runs).orElse(false);
    }

    /** Gives a port of this process back, so that this or another process may reserve it again. */
    static synchronized void release(int port) {
        if (OWN.remove(port)) {
            deleteOwn(port);
        }
    }

    private static void releaseAll() {
        for (int port : OWN) {
            deleteOwn(port);
        }
    }

    private static void deleteOwn(int port) {
        try {
            Path file = DIR.resolve(Integer.toString(port));
            if (Files.isRegularFile(file) && Files.readString(file, StandardCharsets.US_ASCII).strip().equals(OWNER)) {
                Files.delete(file);
            }
        } catch (IOException e) {
            // the next process to meet the file takes it over
        }
    }
}
