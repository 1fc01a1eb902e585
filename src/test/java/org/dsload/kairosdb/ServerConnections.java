package org.dsload.kairosdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Established TCP connections to a local port, as the kernel sees them (/proc/net/tcp): the server's view of a client pool. */
final class ServerConnections {
    private ServerConnections() {
    }

    static int established(int port) {
        String local = String.format(Locale.ROOT, ":%04X", port);
        int count = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(file)) {
                    String[] f = line.trim().split("\\s+");
                    // local address, remote address, state 01 = ESTABLISHED; the server's end has the port locally
                    if (f.length > 3 && f[1].endsWith(local) && f[3].equals("01")) {
                        count++;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }
}
