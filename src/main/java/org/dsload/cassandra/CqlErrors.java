package org.dsload.cassandra;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.dsload.core.Errors;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.CoordinatorException;

/** Response codes and messages of failed CQL requests. */
final class CqlErrors {
    private CqlErrors() {
    }

    /** What the driver threw, without the wrappers of asynchronous calls. */
    static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * The driver exception's simple name: ReadTimeoutException, WriteTimeoutException,
     * UnavailableException, InvalidQueryException, SyntaxError, DriverTimeoutException,
     * AllNodesFailedException ...
     */
    static String code(Throwable error) {
        return unwrap(error).getClass().getSimpleName();
    }

    /** The driver's message with the node that answered, or what was tried, so a person knows where to look. */
    static String message(Throwable error, CqlClient client) {
        Throwable e = unwrap(error);
        if (e instanceof CoordinatorException coordinator) {
            return e.getMessage() + " [coordinator " + address(coordinator.getCoordinator()) + "]";
        }
        if (e instanceof DriverTimeoutException) {
            return "no response within the request timeout of " + client.requestTimeout().toMillis() + " ms ("
                    + e.getMessage() + ") [" + client.target() + "]";
        }
        if (e instanceof NoNodeAvailableException) {
            return e.getMessage() + ": every node is down or outside the local data centre [" + client.target() + "]";
        }
        if (e instanceof AllNodesFailedException) {
            return e.getMessage() + " [" + client.target() + "]";
        }
        return Errors.describe(e) + " [" + client.target() + "]";
    }

    static String address(Node node) {
        if (node == null) {
            return "unknown";
        }
        String text = String.valueOf(node.getEndPoint());
        return text.startsWith("/") ? text.substring(1) : text;
    }
}
