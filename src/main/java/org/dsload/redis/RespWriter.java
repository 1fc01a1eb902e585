package org.dsload.redis;

import java.nio.ByteBuffer;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

/** Encodes commands as RESP2 arrays of bulk strings, the way every Redis client sends them. */
final class RespWriter {
    private RespWriter() {
    }

    /**
     * Appends a command to a buffer in write mode, growing it when it is too small.
     *
     * @return the buffer to use from now on (the same one unless it had to grow)
     */
    static ByteBuffer append(ByteBuffer out, CommandArguments command) {
        int size = (int) Resp.commandSize(command);
        ByteBuffer buffer = room(out, size);
        buffer.put((byte) '*');
        decimal(buffer, command.size());
        for (Rawable arg : command) {
            byte[] raw = arg.getRaw();
            buffer.put((byte) '$');
            decimal(buffer, raw.length);
            buffer.put(raw);
            crlf(buffer);
        }
        return buffer;
    }

    /** Appends bytes encoded beforehand (a handshake). */
    static ByteBuffer append(ByteBuffer out, byte[] encoded) {
        return room(out, encoded.length).put(encoded);
    }

    /** Encodes one command into an array of its own. */
    static byte[] encode(CommandArguments command) {
        ByteBuffer buffer = append(ByteBuffer.allocate((int) Resp.commandSize(command)), command);
        return buffer.array();
    }

    private static ByteBuffer room(ByteBuffer out, int size) {
        if (out.remaining() >= size) {
            return out;
        }
        int capacity = Math.max(out.capacity() * 2, out.position() + size);
        ByteBuffer bigger = ByteBuffer.allocate(capacity);
        out.flip();
        bigger.put(out);
        return bigger;
    }

    private static void decimal(ByteBuffer out, int value) {
        if (value < 10) {
            out.put((byte) ('0' + value));
        } else {
            int digits = Resp.digits(value);
            int at = out.position() + digits;
            for (int v = value, i = at - 1; i >= at - digits; i--, v /= 10) {
                out.put(i, (byte) ('0' + v % 10));
            }
            out.position(at);
        }
        crlf(out);
    }

    private static void crlf(ByteBuffer out) {
        out.put((byte) '\r').put((byte) '\n');
    }
}
