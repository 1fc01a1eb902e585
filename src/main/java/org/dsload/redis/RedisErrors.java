package org.dsload.redis;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.NoSuchElementException;
import java.util.Set;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;
import org.dsload.core.Unreachable;

import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/** Response codes and messages for failed Redis commands. */
final class RedisErrors {
    /** Response code when no pooled connection was free (Block when exhausted false, or Max wait passed). */
    static final String POOL_EXHAUSTED = "POOL_EXHAUSTED";
    /** Response code of a request that got no reply within the socket timeout (requests in flight). */
    static final String TIMEOUT = "TIMEOUT";
    /** Response code of a request whose connection the server closed before the reply (requests in flight). */
    static final String CONNECTION_CLOSED = "CONNECTION_CLOSED";
    /** Response code of a request answered with bytes that are not RESP2 (requests in flight). */
    static final String PROTOCOL_ERROR = "PROTOCOL_ERROR";

    /** Error classes that the same command meets again however often it is sent: the login, the ACL. */
    private static final Set<String> UNRECOVERABLE = Set.of("NOAUTH", "WRONGPASS", "NOPERM");

    private RedisErrors() {
    }

    /** Whether no retry can cure a failed command: the server refuses the login or the command's permission. */
    static boolean unrecoverable(Outcome failed) {
        return !failed.success() && UNRECOVERABLE.contains(failed.code());
    }

    /**
     * The server's error class for an error reply (WRONGTYPE, ERR, NOSCRIPT, MOVED, NOAUTH ...),
     * {@link #POOL_EXHAUSTED}, or else the Jedis exception's class name.
     */
    static String code(Throwable error) {
        if (error instanceof JedisDataException) {
            String prefix = errorPrefix(error.getMessage());
            if (prefix != null) {
                return prefix;
            }
        }
        if (isPoolExhausted(error)) {
            return POOL_EXHAUSTED;
        }
        return error.getClass().getSimpleName();
    }

    static boolean isPoolExhausted(Throwable error) {
        return error instanceof JedisException && error.getCause() instanceof NoSuchElementException;
    }

    /**
     * Whether a connection could not be made at all (refused, unreachable, connect timeout), as
     * opposed to a failure on a connection that was made: what a back-off is for.
     */
    static boolean isConnectFailure(Throwable error) {
        if (isPoolExhausted(error) || error instanceof JedisDataException) {
            return false;
        }
        Throwable root = Errors.rootCause(error);
        return root instanceof ConnectException || root instanceof NoRouteToHostException
                || root instanceof UnknownHostException
                || root instanceof SocketTimeoutException && String.valueOf(root.getMessage()).contains("connect");
    }

    /**
     * Whether a failed request never reached the server: its connection could not be made (the
     * blocking client's failure says so in its message, the event loop's in its code).
     */
    static boolean unreachable(Outcome failed) {
        return Unreachable.connectFailure(failed);
    }

    /** The error class of an error reply's text ("WRONGTYPE Operation against ..." gives WRONGTYPE), or ERR. */
    static String errorClass(String message) {
        String prefix = errorPrefix(message);
        return prefix == null ? "ERR" : prefix;
    }

    private static String errorPrefix(String message) {
        if (message == null) {
            return null;
        }
        int end = 0;
        while (end < message.length() && Character.isUpperCase(message.charAt(end))) {
            end++;
        }
        boolean wordEnds = end == message.length() || message.charAt(end) == ' ';
        return end >= 2 && wordEnds ? message.substring(0, end) : null;
    }

    /** What went wrong, worded so a person knows where to look. */
    static String message(Throwable error, RedisClient client) {
        if (error instanceof JedisDataException) {
            return error.getMessage();
        }
        if (isPoolExhausted(error)) {
            return "no free connection in the pool of " + client.target() + " (" + client.poolSummary()
                    + "): raise Max total or use fewer threads";
        }
        if (isConnectFailure(error)) {
            return "cannot connect to " + client.target() + ": " + Errors.describe(error);
        }
        if (Errors.rootCause(error) instanceof SocketTimeoutException) {
            return "no reply from " + client.target() + " within the socket timeout of "
                    + client.socketTimeoutMillis() + " ms: " + Errors.describe(error);
        }
        return Errors.describe(error) + " [" + client.target() + "]";
    }
}
