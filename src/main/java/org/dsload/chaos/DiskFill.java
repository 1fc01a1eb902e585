package org.dsload.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The process driver's disk full: a file in the node's data directory that takes the space left
 * on its filesystem, deleted by the revert. It refuses a filesystem with more free space than its
 * limit: it is meant for a small dedicated volume, never a host's main disk.
 */
final class DiskFill {
    /** Disk full refuses to fill more than this unless the fault says max=...: it is for small dedicated volumes. */
    static final long DEFAULT_MAX_FILL = 4L << 30;

    private DiskFill() {
    }

    static FaultDriver.Applied fill(FaultSpec spec, FaultRecord record) throws IOException {
        Path dir = Path.of(spec.target().require("data", "disk full fills the filesystem of the node's data directory"));
        if (!Files.isDirectory(dir)) {
            throw new IOException("data directory " + dir + " of target '" + spec.target().name() + "' does not exist");
        }
        FileStore store = Files.getFileStore(dir);
        long reserve = Quantities.bytes(spec.param("reserve", "0"));
        long max = Quantities.bytes(spec.param("max", Long.toString(DEFAULT_MAX_FILL)));
        long usable = store.getUsableSpace();
        if (usable - reserve > max) {
            throw new IllegalStateException(String.format(Locale.ROOT, "the filesystem of %s has %d MiB free, more than "
                    + "the %d MiB disk full fills (max=...): put the node's data on a small dedicated volume (a "
                    + "size-limited tmpfs or loop device), never fill a host's main disk", dir, usable >> 20, max >> 20));
        }
        Path file = dir.resolve("dsload-disk-full-" + spec.id() + ".fill");
        record.put("fill.file", file.toString());
        long written = write(file, usable - reserve);
        long left = store.getUsableSpace();
        return new FaultDriver.Applied(record, String.format(Locale.ROOT, "filled %s with %d MiB; %d KiB left on %s",
                file, written >> 20, left >> 10, store.name()));
    }

    static String free(FaultRecord record) throws IOException {
        Path file = Path.of(record.require("fill.file"));
        long size = Files.exists(file) ? Files.size(file) : 0;
        Files.deleteIfExists(file);
        return "deleted " + file + " (" + (size >> 20) + " MiB freed)";
    }

    /** Writes zeros until the filesystem is full (or the limit is reached), in large then small blocks. */
    private static long write(Path file, long limit) throws IOException {
        long written = 0;
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int block : new int[] {1 << 20, 4096, 512}) {
                byte[] zeros = new byte[block];
                try {
                    while (written + block <= limit) {
                        out.write(zeros);
                        written += block;
                    }
                    out.flush();
                } catch (IOException full) {
                    // no space left for a block this size: try smaller ones
                }
            }
        } catch (IOException closeFull) {
            // the last partial buffer found no room; the space is used up either way
        }
        return written;
    }
}
