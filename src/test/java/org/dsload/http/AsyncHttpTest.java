package org.dsload.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ContentType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bytes the async client reports against the bytes a server read and wrote on the socket. */
@Timeout(30)
class AsyncHttpTest {
    private static final byte[] ANSWER = ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
            + "Content-Length: 17\r\nX-Influxdb-Version: 1.6.7\r\n\r\n{\"error\":\"wrong\"}").getBytes(StandardCharsets.US_ASCII);

    /** Reads one request (head and Content-Length body), answers ANSWER; completes with the bytes read. */
    private static CompletableFuture<Integer> serveOne(ServerSocket server) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                    head.write(in.read());
                }
                String text = head.toString(StandardCharsets.US_ASCII);
                int at = text.toLowerCase().indexOf("content-length: ");
                int length = Integer.parseInt(text.substring(at + 16, text.indexOf("\r\n", at)).trim());
                in.readNBytes(length);
                OutputStream out = s.getOutputStream();
                out.write(ANSWER);
                out.flush();
                Thread.sleep(200);
                return head.size() + length;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void wireBytesAreTheBytesOnTheSocket() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
                AsyncHttp http = new AsyncHttp(new AsyncHttp.Settings(2, 1, 2000, 5000, true))) {
            CompletableFuture<Integer> read = serveOne(server);
            SimpleHttpRequest post = SimpleHttpRequest.create("POST",
                    URI.create("http://127.0.0.1:" + server.getLocalPort() + "/write?db=test"));
            post.setBody("cpu value=1".getBytes(StandardCharsets.UTF_8), ContentType.create("text/plain", "UTF-8"));
            HttpClientContext context = HttpClientContext.create();
            var answer = http.execute(post, context, null).get(10, TimeUnit.SECONDS);
            assertEquals(400, answer.getCode());
            assertEquals((long) read.get(10, TimeUnit.SECONDS), AsyncHttp.sentHead(context) + 11,
                    "request line, headers and body as the server read them");
            assertEquals(ANSWER.length, AsyncHttp.receivedHead(context) + answer.getBodyBytes().length,
                    "status line, headers and body as the server wrote them");
        }
    }
}
