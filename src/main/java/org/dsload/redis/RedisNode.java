package org.dsload.redis;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One server of a thread's own connections (the server, or a cluster node): its connections, those
 * with room for another request, and requests that wait for one.
 */
final class RedisNode {
    final String address;
    final InetSocketAddress socket;
    final List<RedisLink> links = new ArrayList<>();
    /** Connections that may have room, last freed on top; entries that no longer have room are skipped. */
    final ArrayDeque<RedisLink> available = new ArrayDeque<>();
    final List<RedisLink> backingOff = new ArrayList<>();
    final ArrayDeque<RedisRequest> waiting = new ArrayDeque<>();

    RedisNode(String host, int port) {
        this.address = host + ":" + port;
        this.socket = InetSocketAddress.createUnresolved(host, port);
    }

    /** Connections whose back-off is over may be used again. */
    void revive(long nowNanos) {
        for (int i = backingOff.size() - 1; i >= 0; i--) {
            RedisLink link = backingOff.get(i);
            if (!link.backoff.waiting(nowNanos)) {
                backingOff.remove(i);
                link.state = RedisLink.State.CLOSED;
                offer(link);
            }
        }
    }

    /** A new connection of this node, not yet made, listed as having room. */
    RedisLink addLink() {
        RedisLink link = new RedisLink(this);
        links.add(link);
        offer(link);
        return link;
    }

    /** Forgets a closed connection: it is no longer one of this node's. */
    void forget(RedisLink link) {
        links.remove(link);
        backingOff.remove(link);
        available.remove(link);
        link.listed = false;
    }

    /** Lists a connection as having room, once. */
    void offer(RedisLink link) {
        if (!link.listed) {
            link.listed = true;
            available.addLast(link);
        }
    }

    /** A connection with room, or null. */
    RedisLink free(int depth) {
        while (!available.isEmpty()) {
            RedisLink link = available.peekLast();
            if (link.hasRoom(depth)) {
                return link;
            }
            available.pollLast();
            link.listed = false;
        }
        return null;
    }

    /** The end of the earliest back-off, or Long.MAX_VALUE. */
    long backoffEnd() {
        long end = Long.MAX_VALUE;
        for (RedisLink link : backingOff) {
            long notBefore = link.backoff.notBeforeNanos();
            if (end == Long.MAX_VALUE || notBefore - end < 0) {
                end = notBefore;
            }
        }
        return end;
    }

    @Override
    public String toString() {
        return address;
    }
}
