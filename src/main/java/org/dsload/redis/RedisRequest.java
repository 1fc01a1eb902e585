package org.dsload.redis;

import org.dsload.core.inflight.InFlightRequest;

import redis.clients.jedis.CommandArguments;

/** A Redis command kept in flight: the command, and where it is on its way. */
final class RedisRequest extends InFlightRequest {
    CommandArguments command;
    /** Its cluster slot, or -1 (standalone, or no key). */
    int slot = -1;
    /** The connection it waits for the reply on; null while waiting for a connection or after its connection closed. */
    RedisLink link;
    /** The node it waits for a free connection of, or null. */
    RedisNode waitingOn;
    /** host:port it was last sent to, for messages. */
    String server;
    int redirects;
    /** Send ASKING before it (an ASK redirection). */
    boolean asking;
    /** Its connection was closed while it waited for its reply; it can only time out now. */
    boolean orphaned;
    /** Already written into its connection's output. */
    boolean encoded;
    /** Keep the reply's value in {@link #value} (a caller that reads what came back). */
    boolean keepValue;
    /** The reply as Jedis hands it back (byte[], Long, List, null), when {@link #keepValue} asked for it. */
    Object value;

    void clear() {
        command = null;
        slot = -1;
        link = null;
        waitingOn = null;
        server = null;
        redirects = 0;
        asking = false;
        orphaned = false;
        encoded = false;
        keepValue = false;
        value = null;
    }
}
