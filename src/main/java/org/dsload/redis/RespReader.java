package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Reads RESP2 replies out of bytes received so far. A reply not yet complete is left for later
 * (the caller keeps the bytes and reads again when more have arrived). Without the value asked
 * for, it only measures the reply: a GET of 100 bytes costs no allocation.
 */
final class RespReader {
    /** What {@link #read} returns while the reply is not complete yet. */
    static final int INCOMPLETE = -1;
    private static final int MAX_DEPTH = 64;

    /** The value of the element read last, when values are kept. */
    private Object element;
    private boolean elementNil;

    /** A reply that is not RESP2: the connection is out of step and must be closed. */
    static final class ProtocolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    /**
     * @param keepValue whether to build the reply's value (for response text)
     * @return the offset right after the reply, or {@link #INCOMPLETE}
     * @throws ProtocolException on bytes that are not a RESP2 reply
     */
    int read(byte[] bytes, int from, int limit, RespReply reply, boolean keepValue) {
        reply.reset();
        int end = value(bytes, from, limit, reply, keepValue, 0);
        if (end != INCOMPLETE) {
            reply.wireBytes = end - from;
            reply.value = keepValue ? element : null;
        }
        element = null;
        return end;
    }

    private int value(byte[] b, int at, int limit, RespReply top, boolean keep, int depth) {
        if (at >= limit) {
            return INCOMPLETE;
        }
        int cr = lineEnd(b, at + 1, limit);
        if (cr == INCOMPLETE) {
            return INCOMPLETE;
        }
        byte type = b[at];
        elementNil = false;
        switch (type) {
            case '+' -> {
                kind(top, depth, RespReply.Kind.STATUS);
                element = keep ? Arrays.copyOfRange(b, at + 1, cr) : null;
                return cr + 2;
            }
            case '-' -> {
                String text = new String(b, at + 1, cr - at - 1, StandardCharsets.UTF_8);
                if (depth == 0) {
                    top.kind = RespReply.Kind.ERROR;
                    top.error = text;
                }
                element = keep ? new JedisDataException(text) : null;
                return cr + 2;
            }
            case ':' -> {
                long number = number(b, at + 1, cr);
                kind(top, depth, RespReply.Kind.INTEGER);
                element = keep ? Long.valueOf(number) : null;
                return cr + 2;
            }
            case '$' -> {
                long length = number(b, at + 1, cr);
                if (length < 0) {
                    return nil(top, depth, cr + 2);
                }
                long end = cr + 2 + length + 2;
                if (end > limit) {
                    return INCOMPLETE;
                }
                kind(top, depth, RespReply.Kind.BULK);
                element = keep ? Arrays.copyOfRange(b, cr + 2, cr + 2 + (int) length) : null;
                return (int) end;
            }
            case '*' -> {
                long count = number(b, at + 1, cr);
                if (count < 0) {
                    return nil(top, depth, cr + 2);
                }
                if (depth >= MAX_DEPTH) {
                    throw new ProtocolException("reply nested deeper than " + MAX_DEPTH + " arrays");
                }
                kind(top, depth, RespReply.Kind.ARRAY);
                List<Object> items = keep ? new ArrayList<>((int) Math.min(count, 1024)) : null;
                int next = cr + 2;
                for (long i = 0; i < count; i++) {
                    next = value(b, next, limit, top, keep, depth + 1);
                    if (next == INCOMPLETE) {
                        return INCOMPLETE;
                    }
                    if (depth == 0 && elementNil) {
                        top.nils++;
                    }
                    if (keep) {
                        items.add(element);
                    }
                }
                element = items;
                elementNil = false;
                return next;
            }
            default -> throw new ProtocolException("unexpected reply starting with byte " + (b[at] & 0xff)
                    + " ('" + (char) (b[at] & 0xff) + "')");
        }
    }

    private int nil(RespReply top, int depth, int end) {
        if (depth == 0) {
            top.kind = RespReply.Kind.NIL;
            top.nils = 1;
        }
        element = null;
        elementNil = true;
        return end;
    }

    private static void kind(RespReply top, int depth, RespReply.Kind kind) {
        if (depth == 0) {
            top.kind = kind;
        }
    }

    /** The index of the '\r' of the line's "\r\n", or INCOMPLETE. */
    private static int lineEnd(byte[] b, int from, int limit) {
        for (int i = from; i + 1 < limit; i++) {
            if (b[i] == '\r') {
                if (b[i + 1] != '\n') {
                    throw new ProtocolException("a line ends with '\\r' without '\\n'");
                }
                return i;
            }
        }
        return INCOMPLETE;
    }

    private static long number(byte[] b, int from, int to) {
        if (from >= to) {
            throw new ProtocolException("empty number");
        }
        boolean negative = b[from] == '-';
        int i = negative ? from + 1 : from;
        if (i >= to || to - i > 19) {
            throw new ProtocolException("not a number: " + new String(b, from, to - from, StandardCharsets.US_ASCII));
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = b[i] - '0';
            if (digit < 0 || digit > 9) {
                throw new ProtocolException("not a number: " + new String(b, from, to - from, StandardCharsets.US_ASCII));
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }
}
