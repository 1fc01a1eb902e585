package org.dsload.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.core.Template;

/**
 * One operation of a Multi sample, from one line of the Multi operations field:
 * {@code create <path>}, {@code set <path> [version]}, {@code delete <path> [version]} or
 * {@code check <path> [version]}.
 */
record MultiStep(String kind, Template path, int version) {
    static final String CREATE = "create";
    static final String SET = "set";
    static final String DELETE = "delete";
    static final String CHECK = "check";

    /** @throws IllegalArgumentException naming the line that is wrong */
    static List<MultiStep> parse(String text) {
        List<MultiStep> steps = new ArrayList<>();
        String[] lines = text == null ? new String[0] : text.split("\\R");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] words = line.split("\\s+");
            String kind = words[0].toLowerCase(Locale.ROOT);
            if (!List.of(CREATE, SET, DELETE, CHECK).contains(kind)) {
                throw new IllegalArgumentException("line " + (n + 1) + " '" + line
                        + "' must start with create, set, delete or check");
            }
            if (words.length < 2 || words.length > 3 || kind.equals(CREATE) && words.length > 2) {
                throw new IllegalArgumentException("line " + (n + 1) + " '" + line + "' must be '" + kind + " <path>"
                        + (kind.equals(CREATE) ? "'" : " [version]'"));
            }
            int version = -1;
            if (words.length == 3) {
                try {
                    version = Integer.parseInt(words[2]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + (n + 1) + " '" + line + "' has a version that is not "
                            + "a whole number");
                }
            }
            steps.add(new MultiStep(kind, Template.compile(words[1]), version));
        }
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("has no operation; write one per line, e.g. 'create /a' and 'set /b 3'");
        }
        return steps;
    }
}
