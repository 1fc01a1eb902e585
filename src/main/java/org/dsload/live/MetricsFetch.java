package org.dsload.live;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One kept-alive HTTP/1.1 connection that GETs {@code /metrics} as Prometheus 2.x asks for it
 * (OpenMetrics first, gzip) and reads the body into a reused buffer, throwing it away: what the
 * endpoint's warm-up and the overhead benchmark fetch with. Cheap on purpose: the JDK's HttpClient
 * spends some 28 ms of CPU a fetch of a 21 KB reply, more than the endpoint's own cost.
 */
public final class MetricsFetch implements AutoCloseable {
    /** The Accept and Accept-Encoding headers of Prometheus 2.42's scrapes. */
    private static final byte[] REQUEST = ("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: dsload\r\n"
            + "Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
            + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\nAccept-Encoding: gzip\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private final Socket socket;
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];

    /** Connects to the endpoint on this machine's loopback within {@code timeoutMillis}, reads within it too. */
    public MetricsFetch(int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** One GET, its body read whole (by its length or its chunks); its size, or an IOException unless the reply is 200. */
    public long fetch() throws IOException {
        socket.getOutputStream().write(REQUEST);
        String status = line();
        if (!status.startsWith("HTTP/1.1 200")) {
            throw new IOException("the endpoint answered " + status);
        }
        long length = -1;
        boolean chunked = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String h = header.toLowerCase(Locale.ROOT);
            if (h.startsWith("content-length:")) {
                length = Long.parseLong(h.substring("content-length:".length()).trim());
            } else if (h.startsWith("transfer-encoding:") && h.contains("chunked")) {
                chunked = true;
            }
        }
        if (!chunked) {
            skip(length);
            return length;
        }
        long total = 0;
        for (long size = chunk(); size > 0; size = chunk()) {
            skip(size);
            total += size;
            line();
        }
        line();
        return total;
    }

    private long chunk() throws IOException {
        String size = line();
        int semicolon = size.indexOf(';');
        return Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
    }

    private void skip(long bytes) throws IOException {
        for (long left = bytes; left > 0;) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the endpoint closed the connection mid-reply");
            }
            left -= n;
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the endpoint closed the connection");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Closes it if there is one, quietly. */
    public static void close(MetricsFetch fetch) {
        if (fetch != null) {
            try {
                fetch.close();
            } catch (IOException e) {
                // closed already
            }
        }
    }
}
