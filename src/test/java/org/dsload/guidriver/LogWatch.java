package org.dsload.guidriver;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Reads what jmeter.log gained since the last look: a warning there is a problem for a user too. */
final class LogWatch {
    private static final Pattern ENTRY = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d+ (\\w+) .*");
    private static final Pattern BAD = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d+ (WARN|ERROR|FATAL) .*");

    private final Path log;
    private long offset;
    /** Lines read but not yet looked through for warnings. */
    private final List<String> unchecked = new ArrayList<>();

    LogWatch(Path log) {
        this.log = log;
    }

    /** Every whole line added since the last read. */
    private List<String> newLines() {
        List<String> lines = new ArrayList<>();
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            if (file.length() < offset) {
                offset = 0;
            }
            file.seek(offset);
            byte[] bytes = new byte[(int) (file.length() - offset)];
            file.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            if (end < 0) {
                return lines;
            }
            offset += text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
            lines.addAll(text.substring(0, end).lines().toList());
        } catch (IOException e) {
            lines.add("(cannot read " + log + ": " + e + ")");
        }
        return lines;
    }

    /** Warnings and errors added since the last call, each with the lines that follow it (a stack trace). */
    synchronized List<String> newWarnings() {
        unchecked.addAll(newLines());
        List<String> warnings = new ArrayList<>();
        StringBuilder current = null;
        for (String line : unchecked) {
            if (ENTRY.matcher(line).matches()) {
                if (current != null) {
                    warnings.add(current.toString());
                    current = null;
                }
                if (BAD.matcher(line).matches()) {
                    current = new StringBuilder(line);
                }
            } else if (current != null && current.length() < 2000) {
                current.append('\n').append(line);
            }
        }
        if (current != null) {
            warnings.add(current.toString());
        }
        unchecked.clear();
        return warnings;
    }

    /** Whether a line containing the text was added since the last call (the lines stay to be checked). */
    synchronized boolean sawLine(String text) {
        List<String> lines = newLines();
        unchecked.addAll(lines);
        return lines.stream().anyMatch(l -> l.contains(text));
    }
}
