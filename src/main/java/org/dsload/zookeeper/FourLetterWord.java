package org.dsload.zookeeper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Sends one of ZooKeeper's four-letter admin words ({@code mntr}, {@code srvr}, {@code ruok} ...)
 * to a server's client port and returns the reply. The server answers and closes the
 * connection; a word missing from the server's {@code 4lw.commands.whitelist} is answered with a
 * sentence saying so, which callers see as text without the expected keys.
 */
public final class FourLetterWord {
    private static final int MAX_REPLY = 1 << 20;

    private FourLetterWord() {
    }

    public static String send(String host, int port, String word, int timeoutMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0 && reply.size() < MAX_REPLY) {
                reply.write(buffer, 0, n);
            }
            return reply.toString(StandardCharsets.UTF_8);
        }
    }
}
