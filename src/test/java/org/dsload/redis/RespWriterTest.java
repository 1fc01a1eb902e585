package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;

class RespWriterTest {

    private static String text(ByteBuffer buffer) {
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    @Test
    void aCommandIsAnArrayOfBulkStringsOfExactlyItsCountedSize() {
        CommandArguments set = new CommandArguments(Protocol.Command.SET).key("k").add("0123456789");
        ByteBuffer out = RespWriter.append(ByteBuffer.allocate(64), set);
        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\n0123456789\r\n", text(out));
        assertEquals(Resp.commandSize(set), out.position());
    }

    @Test
    void theBufferGrowsAndKeepsWhatItHeld() {
        byte[] big = new byte[12_345];
        java.util.Arrays.fill(big, (byte) 'x');
        ByteBuffer small = ByteBuffer.allocate(8);
        small.put((byte) '!');
        ByteBuffer out = RespWriter.append(small, new CommandArguments(Protocol.Command.SET).key("k").add(big));
        String written = text(out);
        assertEquals('!', written.charAt(0));
        assertEquals("!*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$12345\r\nxx", written.substring(0, 31));
        assertEquals(1 + Resp.commandSize(new CommandArguments(Protocol.Command.SET).key("k").add(big)),
                out.position());
    }
}
