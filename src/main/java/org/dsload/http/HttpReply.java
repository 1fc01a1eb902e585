package org.dsload.http;

import java.nio.charset.StandardCharsets;

/**
 * An HTTP answer as a sampler judges it: status, reason, body, and the bytes each way, counted
 * on the wire (heads and bodies as HTTP/1.1 sends them) and as bodies alone (what vegeta counts).
 */
public record HttpReply(int status, String reason, String contentType, byte[] body, long wireSent, long wireReceived,
        long bodySent) {

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    public long bodyReceived() {
        return body.length;
    }

    public boolean ok() {
        return status / 100 == 2;
    }
}
