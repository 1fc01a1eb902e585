package org.dsload.cassandra;

import java.util.List;
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
        return telling(unwrap(error)).getClass().getSimpleName();
    }

    /**
     * The error that says most. When the driver tried every node (the default retry policy moves
     * an UnavailableException or a bootstrapping node's error on to the next node), a server's
     * answer among the errors says more than the wrapper or a node that could not be reached.
     */
    static Throwable telling(Throwable error) {
        if (error instanceof AllNodesFailedException all) {
            for (List<Throwable> errors : all.getAllErrors().values()) {
                for (Throwable e : errors) {
                    if (e instanceof CoordinatorException) {
                        return e;
                    }
                }
            }
        }
        return error;
    }

    /** The driver's message with the node that answered, or what was tried, so a person knows where to look. */
    static String message(Throwable error, CqlClient client) {
        Throwable unwrapped = unwrap(error);
        Throwable e = telling(unwrapped);
        if (e != unwrapped) {
            return message(e, client) + " (then no other node could take the request: " + unwrapped.getMessage() + ")";
        }
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
