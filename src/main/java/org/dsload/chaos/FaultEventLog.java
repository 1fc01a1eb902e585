package org.dsload.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Every apply and revert of a schedule, one line each in {@code <run folder>/faults.tsv}
 * ({@code epoch ms, event, label, code, message}), including the reverts done at the end of the
 * test or at JVM exit, which no sample can carry any more. The phase report reads it beside the
 * results file.
 */
final class FaultEventLog {
    static final String FILE = "faults.tsv";
    private final Path file;

    FaultEventLog(Path runDir) {
        this.file = runDir == null ? null : runDir.resolve(FILE);
    }

    synchronized void add(long at, String event, String label, String code, String message) {
        if (file == null) {
            return;
        }
        String line = at + "\t" + event + "\t" + label + "\t" + code + "\t" + clean(message) + "\n";
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the samples carry the same events; the log is a second record
        }
    }

    private static String clean(String text) {
        return text == null ? "" : text.replaceAll("[\\t\\r\\n]+", " ");
    }
}
