package org.dsload.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Follows a log that another process writes: each read gives the complete lines added since the last one. */
final class LogTail {
    private static final int MAX_READ = 4 << 20;

    private final Path file;
    private long offset;

    LogTail(Path file) {
        this.file = file;
    }

    /** The complete lines written since the last read ("" for none, or while the file is not there). */
    String newLines() throws IOException {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= offset) {
                return "";
            }
            byte[] bytes = new byte[(int) Math.min(length - offset, MAX_READ)];
            in.seek(offset);
            in.readFully(bytes);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            offset += end;
            return new String(bytes, 0, end, StandardCharsets.UTF_8);
        }
    }
}
