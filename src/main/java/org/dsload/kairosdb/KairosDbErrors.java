package org.dsload.kairosdb;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.dsload.core.Errors;

/** Response codes and messages for requests that got no HTTP answer. */
final class KairosDbErrors {
    private KairosDbErrors() {
    }

    /** The exception's class, as JMeter users know it from the HTTP sampler's "Non HTTP response code". */
    static String code(Throwable error) {
        Throwable cause = error instanceof KairosDbClient.TransportException && error.getCause() != null
                ? error.getCause() : error;
        return cause.getClass().getSimpleName();
    }

    /**
     * Whether a request that ended with this code was sent whole but got no answer: the response
     * timeout ran out, or the node closed the connection without answering. A write that ended so
     * may have been stored.
     */
    static boolean unanswered(String code) {
        return SocketTimeoutException.class.getSimpleName().equals(code)
                || NoHttpResponseException.class.getSimpleName().equals(code);
    }

    static String message(Throwable error, KairosDbClient client) {
        URI node = error instanceof KairosDbClient.TransportException t ? t.node() : null;
        Throwable cause = error instanceof KairosDbClient.TransportException && error.getCause() != null
                ? error.getCause() : error;
        KairosDbClient.ClientSettings s = client.settings();
        String where = node == null ? "KairosDB" : node.toString();
        if (cause instanceof ConnectionRequestTimeoutException) {
            return "no free connection in the pool within the pool timeout of " + s.poolTimeoutMillis()
                    + " ms: all " + s.maxConnectionsPerNode() + " connections per node were busy (Max connections per node)";
        }
        if (cause instanceof ConnectTimeoutException) {
            return "no connection to " + where + " within the connect timeout of " + s.connectTimeoutMillis() + " ms";
        }
        if (cause instanceof ConnectException) {
            return "cannot connect to " + where + ": " + Errors.sentence(String.valueOf(Errors.rootCause(cause).getMessage()))
                    + ". Is KairosDB running there?";
        }
        if (cause instanceof SocketTimeoutException) {
            return "no response from " + where + " within the response timeout of " + s.responseTimeoutMillis() + " ms";
        }
        if (cause instanceof NoHttpResponseException) {
            return where + " closed the connection without answering";
        }
        if (cause instanceof UnknownHostException) {
            return "unknown host in " + where;
        }
        return where + ": " + Errors.describe(cause);
    }
}
