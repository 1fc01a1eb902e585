package org.dsload.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A list of slaves, one {@code host} or {@code host:port} a line; blank lines and text after
 * {@code #} are ignored. The runner turns it into the master's {@code -R} list.
 */
public final class HostsFile {
    private HostsFile() {
    }

    public static List<SlaveAddress> read(Path file) throws IOException {
        List<SlaveAddress> slaves = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String entry = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (entry.isEmpty()) {
                continue;
            }
            try {
                slaves.add(SlaveAddress.parse(entry));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (slaves.isEmpty()) {
            throw new IOException(file + " lists no slaves (one host or host:port a line)");
        }
        return slaves;
    }

    public static void write(Path file, List<SlaveAddress> slaves, String comment) throws IOException {
        StringBuilder text = new StringBuilder("# ").append(comment).append('\n');
        slaves.forEach(s -> text.append(s).append('\n'));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
