package org.dsload.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.dsload.core.Results.LimitedText;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.args.Rawable;

/**
 * Sizes and text of RESP frames. Bytes sent are the exact size of the encoded command. Bytes
 * received are the size of the reply as RESP2 encodes it. Jedis hands back a status reply
 * ({@code +OK}) like a bulk string; the replies OK, PONG and QUEUED are counted as the status
 * replies they nearly always are, other status replies (TYPE's, for one) as bulk strings, a few
 * bytes more than the wire.
 */
final class Resp {
    private Resp() {
    }

    static long commandSize(CommandArguments command) {
        long size = header(command.size());
        for (Rawable arg : command) {
            size += bulk(arg.getRaw().length);
        }
        return size;
    }

    static long replySize(Object reply) {
        if (reply == null) {
            return 5; // $-1\r\n
        }
        if (reply instanceof byte[] bytes) {
            return isStatus(bytes) ? 3 + bytes.length : bulk(bytes.length);
        }
        if (reply instanceof Long number) {
            return 3 + Long.toString(number).length();
        }
        if (reply instanceof List<?> list) {
            long size = header(list.size());
            for (Object item : list) {
                size += replySize(item);
            }
            return size;
        }
        if (reply instanceof Throwable error) {
            return errorSize(error);
        }
        return 3 + String.valueOf(reply).length();
    }

    private static final byte[][] STATUS_REPLIES = {
        "OK".getBytes(StandardCharsets.US_ASCII), "PONG".getBytes(StandardCharsets.US_ASCII),
        "QUEUED".getBytes(StandardCharsets.US_ASCII)};

    private static boolean isStatus(byte[] reply) {
        for (byte[] status : STATUS_REPLIES) {
            if (Arrays.equals(status, reply)) {
                return true;
            }
        }
        return false;
    }

    static long errorSize(Throwable error) {
        String message = error.getMessage();
        return 3 + (message == null ? 0 : message.getBytes(StandardCharsets.UTF_8).length);
    }

    private static long header(int count) {
        return 3 + digits(count);
    }

    private static long bulk(int length) {
        return 5 + digits(length) + (long) length;
    }

    /** Decimal digits of a count (sizes are counted for every command: no string for it). */
    static int digits(int value) {
        int digits = 1;
        for (int v = value; v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }

    /** Renders a reply the way redis-cli prints it, up to the text's limit. */
    static void render(Object reply, LimitedText out, String indent) {
        if (out.full()) {
            out.append("...");
            return;
        }
        if (reply == null) {
            out.append("(nil)");
        } else if (reply instanceof byte[] bytes) {
            out.append('"').append(new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.UTF_8));
            if (bytes.length > 4096) {
                out.append("...");
            }
            out.append('"');
        } else if (reply instanceof Long number) {
            out.append("(integer) ").append(Long.toString(number));
        } else if (reply instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("(empty array)");
            }
            int i = 1;
            for (Object item : list) {
                if (i > 1) {
                    out.append('\n').append(indent);
                }
                String number = i + ") ";
                out.append(number);
                render(item, out, indent + " ".repeat(number.length()));
                if (out.full()) {
                    break;
                }
                i++;
            }
        } else if (reply instanceof Throwable error) {
            out.append("(error) ").append(String.valueOf(error.getMessage()));
        } else {
            out.append(String.valueOf(reply));
        }
    }

    /** Counts nil replies, including nil elements of a top-level array (MGET on missing keys). */
    static int nils(Object reply) {
        if (reply == null) {
            return 1;
        }
        int count = 0;
        if (reply instanceof List<?> list) {
            for (Object item : list) {
                if (item == null) {
                    count++;
                }
            }
        }
        return count;
    }
}
