package org.dsload.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.dsload.core.Results.LimitedText;
import org.junit.jupiter.api.Test;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

class RespTest {

    @Test
    void commandSizeIsTheEncodedLength() {
        // *2\r\n$3\r\nGET\r\n$3\r\nkey\r\n = 4 + 9 + 9
        CommandArguments get = new CommandArguments(Protocol.Command.GET).key("key");
        assertEquals(22, Resp.commandSize(get));
        // *3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\n0123456789\r\n = 4 + 9 + 7 + 17
        CommandArguments set = new CommandArguments(Protocol.Command.SET).key("k").add("0123456789");
        assertEquals(37, Resp.commandSize(set));
    }

    @Test
    void replySizesFollowResp2() {
        assertEquals(5, Resp.replySize(null));                                   // $-1\r\n
        assertEquals(9, Resp.replySize("abc".getBytes(StandardCharsets.UTF_8)));  // $3\r\nabc\r\n
        assertEquals(5, Resp.replySize("OK".getBytes(StandardCharsets.UTF_8)));   // +OK\r\n
        assertEquals(7, Resp.replySize("PONG".getBytes(StandardCharsets.UTF_8))); // +PONG\r\n
        assertEquals(6, Resp.replySize(123L));                                   // :123\r\n
        // *2\r\n $1\r\na\r\n $-1\r\n
        assertEquals(4 + 7 + 5, Resp.replySize(Arrays.asList("a".getBytes(StandardCharsets.UTF_8), null)));
        // -ERR x\r\n
        assertEquals(8, Resp.replySize(new JedisDataException("ERR x")));
    }

    @Test
    void nilsCountTopLevelNilAndNilElements() {
        assertEquals(1, Resp.nils(null));
        assertEquals(0, Resp.nils(1L));
        assertEquals(2, Resp.nils(Arrays.asList(null, "x".getBytes(), null)));
    }

    @Test
    void repliesRenderLikeRedisCli() {
        LimitedText text = new LimitedText(1000);
        Resp.render(List.of("a".getBytes(), 5L, Arrays.asList((Object) null)), text, "");
        assertEquals("1) \"a\"\n2) (integer) 5\n3) 1) (nil)", text.toString());
    }

    @Test
    void renderingStopsAtTheLimit() {
        LimitedText text = new LimitedText(10);
        Resp.render("0123456789abcdef".getBytes(), text, "");
        assertEquals("\"012345678\n... (truncated at 10 characters)", text.toString());
    }
}
