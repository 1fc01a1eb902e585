package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.dsload.core.Results.LimitedText;
import org.junit.jupiter.api.Test;

class RespReaderTest {
    private final RespReader reader = new RespReader();
    private final RespReply reply = new RespReply();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private int read(String wire, boolean keep) {
        byte[] b = bytes(wire);
        return reader.read(b, 0, b.length, reply, keep);
    }

    @Test
    void everyKindIsMeasuredToTheByte() {
        assertEquals(5, read("+OK\r\n", false));
        assertEquals(RespReply.Kind.STATUS, reply.kind);
        assertEquals(5, reply.wireBytes);

        assertEquals(7, read(":1000\r\n+OK", false), "the next reply's bytes are left");
        assertEquals(RespReply.Kind.INTEGER, reply.kind);

        assertEquals(9, read("$3\r\nabc\r\n", false));
        assertEquals(RespReply.Kind.BULK, reply.kind);
        assertNull(reply.value, "without keep, no value is built");

        assertEquals(5, read("$-1\r\n", false));
        assertEquals(RespReply.Kind.NIL, reply.kind);
        assertEquals(1, reply.nils);

        assertEquals(24, read("-WRONGTYPE Operation x\r\n", false));
        assertEquals(RespReply.Kind.ERROR, reply.kind);
        assertEquals("WRONGTYPE Operation x", reply.error);
    }

    @Test
    void sizesAgreeWithWhatTheBlockingPathCounts() {
        // the same reply as Jedis returns it, measured by Resp.replySize
        read("*3\r\n$1\r\na\r\n$-1\r\n:7\r\n", true);
        assertEquals(Resp.replySize(reply.value), reply.wireBytes);
        assertEquals(1, reply.nils, "a nil element of a top-level array counts");
    }

    @Test
    void anIncompleteReplyIsLeftForMoreBytesAtEveryCut() {
        String wire = "*2\r\n$5\r\nhello\r\n*1\r\n:42\r\n";
        byte[] b = bytes(wire);
        for (int cut = 0; cut < b.length; cut++) {
            assertEquals(RespReader.INCOMPLETE, reader.read(b, 0, cut, reply, true), "cut at " + cut);
        }
        assertEquals(b.length, reader.read(b, 0, b.length, reply, true));
    }

    @Test
    void keptValuesAreWhatJedisHandsBack() {
        read("*3\r\n$5\r\nhello\r\n:3\r\n*2\r\n+OK\r\n$-1\r\n", true);
        List<?> items = (List<?>) reply.value;
        assertArrayEquals(bytes("hello"), (byte[]) items.get(0));
        assertEquals(3L, items.get(1));
        assertEquals(Arrays.asList(null, null).size(), ((List<?>) items.get(2)).size());
        assertArrayEquals(bytes("OK"), (byte[]) ((List<?>) items.get(2)).get(0));
        assertNull(((List<?>) items.get(2)).get(1));
        assertEquals(0, reply.nils, "nils inside nested arrays are not the command's nils");
        LimitedText text = new LimitedText(1000);
        Resp.render(reply.value, text, "");
        assertEquals("1) \"hello\"\n2) (integer) 3\n3) 1) \"OK\"\n   2) (nil)", text.toString());
    }

    @Test
    void repliesFollowOneAnotherInTheSameBytes() {
        byte[] b = bytes("+OK\r\n$2\r\nhi\r\n:5\r\n");
        int at = 0;
        int count = 0;
        while (at < b.length) {
            at = reader.read(b, at, b.length, reply, false);
            count++;
        }
        assertEquals(3, count);
        assertEquals(RespReply.Kind.INTEGER, reply.kind);
    }

    @Test
    void bytesThatAreNotRespAreRefused() {
        assertThrows(RespReader.ProtocolException.class, () -> read("HTTP/1.1 400\r\n", false));
        assertThrows(RespReader.ProtocolException.class, () -> read("$abc\r\n", false));
        assertThrows(RespReader.ProtocolException.class, () -> read("+OK\rX", false));
    }
}
