package org.dsload.kairosdb;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

import javax.net.ssl.SSLContext;

import org.apache.hc.client5.http.socket.ConnectionSocketFactory;
import org.apache.hc.client5.http.socket.PlainConnectionSocketFactory;
import org.apache.hc.client5.http.ssl.SSLConnectionSocketFactory;
import org.apache.hc.core5.http.config.Registry;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Bytes on the wire per request. HttpClient's classic I/O reads and writes a connection in the
 * thread that executes the request, and a pooled connection serves one request at a time, so
 * bytes counted per thread between {@link #reset()} and the end of the request are exactly that
 * request's: request line, headers, body as sent (gzipped or not), the response as received,
 * and a TLS handshake when the request opened the connection.
 */
final class WireBytes {
    private static final ThreadLocal<long[]> COUNTS = ThreadLocal.withInitial(() -> new long[2]);

    private WireBytes() {
    }

    static void reset() {
        long[] counts = COUNTS.get();
        counts[0] = 0;
        counts[1] = 0;
    }

    static long sent() {
        return COUNTS.get()[0];
    }

    static long received() {
        return COUNTS.get()[1];
    }

    /** Socket factories for http and https whose sockets count what they move. */
    static Registry<ConnectionSocketFactory> socketFactories() {
        SSLContext tls;
        try {
            tls = SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no default TLS context", e);
        }
        return RegistryBuilder.<ConnectionSocketFactory>create()
                .register("http", new PlainConnectionSocketFactory() {
                    @Override
                    public Socket createSocket(HttpContext context) {
                        return new CountingSocket();
                    }
                })
                .register("https", new SSLConnectionSocketFactory(tls) {
                    @Override
                    public Socket createSocket(HttpContext context) {
                        return new CountingSocket();
                    }
                })
                .build();
    }

    /** A plain socket whose streams add what they move to the calling thread's counts. */
    private static final class CountingSocket extends Socket {
        private InputStream counted;
        private OutputStream counting;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (counted == null) {
                counted = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            COUNTS.get()[1]++;
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = super.read(buffer, offset, length);
                        if (n > 0) {
                            COUNTS.get()[1] += n;
                        }
                        return n;
                    }
                };
            }
            return counted;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (counting == null) {
                counting = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        COUNTS.get()[0]++;
                    }

                    @Override
                    public void write(byte[] buffer, int offset, int length) throws IOException {
                        out.write(buffer, offset, length);
                        COUNTS.get()[0] += length;
                    }
                };
            }
            return counting;
        }
    }
}
