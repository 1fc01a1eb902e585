package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class HttpGaugesTest {

    /**
     * A server that sends an answer's head and then nothing (as one stopped while it answered does): the
     * JDK client's request timeout ends with the head, so without a bound of its own the call, and the
     * gauge recorder that polls through it, waited for good.
     */
    @Test
    @Timeout(30)
    void anAnswerWhoseBodyNeverComesFailsWithinTheTimeoutAndItsGrace() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread stalled = new Thread(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] buffer = new byte[4096];
                    int n = in.read(buffer);
                    if (n > 0) {
                        OutputStream out = s.getOutputStream();
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    }
                    Thread.sleep(20_000);
                } catch (IOException | InterruptedException e) {
                    // the test is over
                }
            }, "stalled-server");
            stalled.setDaemon(true);
            stalled.start();
            HttpGauges gauges = new HttpGauges(null, null, Duration.ofMillis(500));
            long start = System.nanoTime();
            IOException e = assertThrows(IOException.class, () -> gauges.call(URI.create("http://127.0.0.1:"
                    + server.getLocalPort() + "/api/v1/version"), null));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 500 + HttpGauges.BODY_GRACE_MILLIS + 3000, "gave up after " + millis + " ms: " + e);
            assertTrue(e.getMessage().contains("no whole answer from /api/v1/version within 1500 ms"), e.getMessage());
            stalled.interrupt();
        }
    }
}
