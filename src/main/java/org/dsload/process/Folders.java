package org.dsload.process;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Locale;

/** Folders a run or a server leaves behind. */
public final class Folders {
    private Folders() {
    }

    /** Deletes a folder and everything in it; nothing to do when it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The fresh folder ({@link #fresh}) of one run under {@code root}, which is made if missing: the
     * run id asked for, or {@code <date>-<time>-<name>} when none was.
     */
    public static Path freshRun(Path root, String runId, String name) throws IOException {
        Files.createDirectories(root);
        return fresh(root, runId != null ? runId
                : LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-" + name);
    }

    /**
     * Makes {@code root/base}, or {@code base-2}, {@code base-3} ... when taken, and returns it as an
     * absolute path. Each name is taken by making its folder, which fails when another process made it
     * first: two processes that ask for one name at once (two {@code bin/dsload run} started in the
     * same second into one results root) each get a folder of their own, where a look for the name
     * before making it let both take the same one. {@code root} must exist.
     */
    public static Path fresh(Path root, String base) throws IOException {
        Path dir = root.resolve(base);
        for (int n = 2; ; n++) {
            try {
                Files.createDirectory(dir);
                return dir.toAbsolutePath();
            } catch (FileAlreadyExistsException e) {
                dir = root.resolve(base + "-" + n);
            }
        }
    }
}
