package org.dsload.zookeeper;

import java.nio.charset.StandardCharsets;

/**
 * Approximate bytes on the wire of ZooKeeper requests and replies (jute encoding: a 4-byte
 * frame length, a request header of xid and type, strings and buffers with a 4-byte length).
 * Close enough to show a generator's network load next to its throughput; not byte-exact for
 * ACL lists or multi headers.
 */
final class WireSize {
    static final int FRAME = 4;
    static final int REQUEST_HEADER = 8;
    static final int REPLY_HEADER = 16;
    static final int STAT = 68;
    private static final int OPEN_ACL = 4 + 4 + 4 + 5 + 4 + 6;

    private WireSize() {
    }

    static int string(String s) {
        return 4 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    static int buffer(byte[] data) {
        return 4 + (data == null ? 0 : data.length);
    }

    static long create(String path, byte[] data) {
        return FRAME + REQUEST_HEADER + string(path) + buffer(data) + OPEN_ACL + 4;
    }

    static long set(String path, byte[] data) {
        return FRAME + REQUEST_HEADER + string(path) + buffer(data) + 4;
    }

    /** get, exists, children, delete: a path and a flag or version. */
    static long pathRequest(String path) {
        return FRAME + REQUEST_HEADER + string(path) + 4;
    }

    static long reply(int payload) {
        return FRAME + REPLY_HEADER + payload;
    }
}
