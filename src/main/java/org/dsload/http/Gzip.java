package org.dsload.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/** Request bodies compressed as {@code Content-Encoding: gzip}. */
public final class Gzip {
    private Gzip() {
    }

    public static byte[] of(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 2));
        try (GZIPOutputStream zip = new GZIPOutputStream(out, 1024)) {
            zip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException("gzip in memory failed", e);
        }
        return out.toByteArray();
    }
}
