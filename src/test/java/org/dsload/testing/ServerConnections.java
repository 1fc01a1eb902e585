package org.dsload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Established TCP connections to a local server port, as the kernel sees them (/proc/net/tcp):
 * those this JVM opened to it, which is the server's view of this JVM's client pools; connections
 * other processes keep to the same server are not counted.
 */
public final class ServerConnections {
    private ServerConnections() {
    }

    /** Connections from this JVM to {@code port} on this machine, in the ESTABLISHED state. */
    public static int established(int port) {
        String remote = String.format(Locale.ROOT, ":%04X", port);
        Set<String> mine = socketInodes();
        int count = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path file = Path.of(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(file)) {
                    String[] f = line.trim().split("\\s+");
                    // sl, local address, remote address, state (01 = ESTABLISHED), ..., inode (field 9)
                    if (f.length > 9 && f[2].endsWith(remote) && f[3].equals("01") && mine.contains(f[9])) {
                        count++;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }

    /** The inodes of the sockets this process holds open. */
    private static Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor closed while the folder was read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }
}
