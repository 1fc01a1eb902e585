package org.dsload.redis;

import org.dsload.testing.SamplerThread;

/**
 * A JMeter thread's life in the calling thread, for Redis Commands with requests in flight: the
 * Redis Connection started, samples taken the way JMeter takes them, the thread's end; and every
 * request reported, from the rows samples return and from the rows handed to the thread's
 * listeners when it ends.
 */
final class InFlightRuns extends SamplerThread {

    InFlightRuns(RedisConnection connection) {
        super(connection);
    }
}
