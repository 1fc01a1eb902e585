package org.dsload.redis;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

import org.dsload.core.Backoff;

/**
 * One non-blocking connection of a thread to a Redis server, and what waits for a reply on it,
 * in the order the replies will come: the handshake's, ASKING's, and requests'.
 */
final class RedisLink {
    enum State { CLOSED, CONNECTING, HANDSHAKE, READY, BACKOFF }

    /** The reply of a handshake command (AUTH, SELECT, CLIENT SETNAME) comes next. */
    static final Object HANDSHAKE_REPLY = new Object();
    /** The reply of ASKING comes next. */
    static final Object ASKING_REPLY = new Object();

    final RedisNode node;
    final Backoff backoff = new Backoff();
    final ArrayDeque<Object> replies = new ArrayDeque<>();
    State state = State.CLOSED;
    SocketChannel channel;
    SelectionKey key;
    ByteBuffer in = ByteBuffer.allocate(4 * 1024);
    ByteBuffer out = ByteBuffer.allocate(1024);
    /** Requests among {@link #replies}. */
    int requests;
    int handshakeLeft;
    long connectDeadlineNanos;
    /** Listed in its node's available connections. */
    boolean listed;
    /** Has output waiting for the loop's flush. */
    boolean unwritten;

    RedisLink(RedisNode node) {
        this.node = node;
    }

    boolean hasRoom(int depth) {
        return state != State.BACKOFF && requests < depth;
    }

    boolean open() {
        return channel != null;
    }
}
