package org.dsload.core;

import java.util.Set;

/**
 * Whether a failed request never reached its store: no connection could be made (refused, no
 * route, unknown host, connect timeout), or the driver had no node or session to send it on. Such
 * failures come back at once, so a thread that tries again at once would fail as fast as the
 * machine allows; a {@link Backoff} paces it instead (requests in flight: the transport's; one
 * request per sample: the sampler's, see {@code core.inflight.InFlightSampler#oneRequestDue}).
 * Each store judges its own outcomes (a driver exception's name, a ZooKeeper code); a failure on a
 * connection that was made (a timeout, an error reply) is not one of these.
 */
public final class Unreachable {
    /** The simple names of java.net's exceptions for a connection that could not be made. */
    private static final Set<String> CONNECT_FAILURES = Set.of("ConnectException", "NoRouteToHostException",
            "UnknownHostException", "HttpHostConnectException", "ConnectTimeoutException");

    /** How dsload's messages for a connection that could not be made begin. */
    public static final String CANNOT_CONNECT = "cannot connect";

    private Unreachable() {
    }

    /** A store's judgement of a failed request. */
    @FunctionalInterface
    public interface Judge {
        /** @return whether the request failed without reaching the store */
        boolean unreachable(Outcome failed);
    }

    /**
     * The judge for clients whose response code is the exception's simple name: a connection
     * refused, no route, an unknown host, a connect timeout; or whose message says it could not
     * connect ({@value #CANNOT_CONNECT} ..., as dsload's messages for these begin).
     */
    public static boolean connectFailure(Outcome failed) {
        return !failed.success() && (CONNECT_FAILURES.contains(failed.code())
                || failed.message() != null && failed.message().startsWith(CANNOT_CONNECT));
    }
}
