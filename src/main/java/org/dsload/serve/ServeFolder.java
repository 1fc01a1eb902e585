package org.dsload.serve;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import org.dsload.process.Folders;
import org.dsload.targets.Checkout;
import org.dsload.targets.Placement;
import org.dsload.targets.PortChoice;

/**
 * The folder a serve keeps its targets' data and logs in, one subfolder per target: the one given
 * with {@code --data} (kept, and its ports remembered), or a fresh one under
 * {@code target/serve/} named by time and process, deleted when the serve ends cleanly. A lock
 * file held while the serve runs keeps a second serve out of it.
 */
final class ServeFolder implements AutoCloseable {
    private static final String LOCK = "serve.lock";

    private final Path dir;
    private final boolean kept;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final PortChoice ports;

    private ServeFolder(Path dir, boolean kept, FileChannel lockFile, FileLock lock, PortChoice ports) {
        this.dir = dir;
        this.kept = kept;
        this.lockFile = lockFile;
        this.lock = lock;
        this.ports = ports;
    }

    /** The given folder, or a fresh one when {@code data} is null; locked for this process. */
    static ServeFolder open(Path data, PrintStream console) {
        boolean kept = data != null;
        Path dir = (kept ? data : Checkout.target().resolve("serve").resolve(
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-"
                        + ProcessHandle.current().pid())).toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
            FileChannel channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                lock = null;
            }
            if (lock == null) {
                String owner = holder(channel);
                channel.close();
                throw new IllegalStateException("the data folder " + dir + " is in use by another dsload serve"
                        + owner + ": give another --data, or stop that serve first");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            PortChoice ports = kept ? new RememberedPorts(dir, console) : PortChoice.FREE;
            return new ServeFolder(dir, kept, channel, lock, ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use " + dir + " as the data folder: " + e.getMessage(), e);
        }
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(32);
            channel.read(buffer, 0);
            String pid = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
            return pid.isEmpty() ? "" : " (pid " + pid + ")";
        } catch (IOException e) {
            return "";
        }
    }

    Path dir() {
        return dir;
    }

    boolean kept() {
        return kept;
    }

    /** Where a target's servers go: its subfolder, the folder's ports, its data kept when the folder is. */
    Placement placement(String target) {
        return new Placement(ports, dir.resolve(target), kept);
    }

    /** Unlocks the folder; a fresh one is deleted when the serve ended cleanly (its logs explain a failure). */
    void close(boolean clean) {
        try {
            lock.release();
            lockFile.close();
            if (clean && !kept) {
                Folders.deleteTree(dir);
            }
        } catch (IOException e) {
            // a folder left under target/ is harmless; the next clean build removes it
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
