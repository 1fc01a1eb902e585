package org.dsload.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One fault of a schedule as written in the Faults field:
 * {@code <kind> <target> [key=value ...] [at <offset> | after <n> [+ gap] | on <trigger> [+ gap]] [for <duration>]},
 * e.g. {@code delay node2 delay=200ms after 1 + 20s for 30s}. A text line rather than a table,
 * so that every part takes ${...} like any other field.
 */
record FaultLine(String kind, String target, String parameters, String start, String duration) {

    static List<FaultLine> parseAll(String text) {
        List<FaultLine> lines = new ArrayList<>();
        if (text == null) {
            return lines;
        }
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                lines.add(parse(line));
            }
        }
        return lines;
    }

    static FaultLine parse(String line) {
        String[] words = line.strip().split("\\s+");
        if (words.length < 2) {
            throw new IllegalArgumentException("'" + line.strip() + "': a fault is '<kind> <target> [key=value ...] "
                    + "[at 30s | after 1 + 20s | on <trigger> + 5s] [for 20s]'");
        }
        StringBuilder params = new StringBuilder();
        StringBuilder start = new StringBuilder();
        StringBuilder duration = new StringBuilder();
        StringBuilder into = params;
        for (int i = 2; i < words.length; i++) {
            String w = words[i];
            switch (w.toLowerCase(Locale.ROOT)) {
                case "at" -> {
                    into = start;
                    continue;
                }
                case "after", "on" -> {
                    into = start;
                    into.append(w.toLowerCase(Locale.ROOT)).append(' ');
                    continue;
                }
                case "for" -> {
                    into = duration;
                    continue;
                }
                default -> {
                    // a word of the part being read
                }
            }
            into.append(w).append(' ');
        }
        if (start.toString().isBlank() && duration.toString().isBlank() && !params.toString().isBlank()
                && !params.toString().contains("=")) {
            throw new IllegalArgumentException("'" + line.strip() + "': parameters are key=value; a start is "
                    + "'at 30s', 'after 1 + 20s' or 'on <trigger>', a duration 'for 20s'");
        }
        return new FaultLine(words[0], words[1], params.toString().strip(), start.toString().strip(),
                duration.toString().strip());
    }
}
