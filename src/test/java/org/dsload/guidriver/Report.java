package org.dsload.guidriver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the driver found, one line each, {@code kind TAB subject TAB detail}, for the test to
 * read: problems, screenshots, menu entries, checks done.
 */
final class Report implements AutoCloseable {
    private final Writer out;
    private int problems;

    Report(Path file) {
        try {
            Files.createDirectories(file.getParent());
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    synchronized void line(String kind, String subject, String detail) {
        try {
            out.write(kind + "\t" + flat(subject) + "\t" + flat(detail) + "\n");
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (kind.equals("problem")) {
            problems++;
        }
    }

    void problem(String subject, String detail) {
        line("problem", subject, detail);
    }

    synchronized int problems() {
        return problems;
    }

    private static String flat(String s) {
        return s == null ? "" : s.replace('\t', ' ').replace("\r", "").replace("\n", " | ");
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
