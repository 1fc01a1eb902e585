package org.dsload.core.inflight;

import org.dsload.core.Outcome;

/** Where a {@link Transport} reports how each request ended; the {@link InFlightWindow} is one. */
public interface Replies<R extends InFlightRequest> {

    /**
     * One request ended (reply, error reply, failed connection). Called on the window's own
     * thread; a request that is no longer outstanding (given up meanwhile) is ignored.
     *
     * @param endNanos when its reply was read, on {@link System#nanoTime()}'s clock
     * @param detail   what the sampler may show of it, or null
     */
    void complete(R request, Outcome outcome, long endNanos, Object detail);
}
