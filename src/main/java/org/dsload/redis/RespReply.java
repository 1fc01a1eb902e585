package org.dsload.redis;

/**
 * One RESP2 reply as {@link RespReader} found it: its kind, its exact size on the wire, the nils
 * at its top level, an error reply's text, and its value when it was asked for (response text).
 * Reused from reply to reply.
 */
final class RespReply {
    enum Kind { STATUS, ERROR, INTEGER, BULK, ARRAY, NIL }

    Kind kind;
    /** Bytes of the reply on the wire. */
    long wireBytes;
    /** A nil reply counts 1, an array counts its nil elements ({@link Resp#nils}). */
    int nils;
    /** The text of an error reply, without its leading '-'. */
    String error;
    /** The reply as Jedis hands it back (byte[], Long, List, null), when it was asked for. */
    Object value;

    void reset() {
        kind = null;
        wireBytes = 0;
        nils = 0;
        error = null;
        value = null;
    }
}
