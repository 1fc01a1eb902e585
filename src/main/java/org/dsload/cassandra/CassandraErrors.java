package org.dsload.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;

import org.dsload.core.Errors;
import org.dsload.core.Outcome;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.UnsupportedProtocolVersionException;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.CoordinatorException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;

/** Response codes and messages of failed CQL requests. */
final class CassandraErrors {
    /** Codes of errors that the same request meets again on any node, however often it is sent. */
    private static final Set<String> UNRECOVERABLE = Set.of(UnauthorizedException.class.getSimpleName(),
            AuthenticationException.class.getSimpleName());
    /** How Cassandra words a statement on a table or keyspace that is not there (5.0, and 3.x's "unconfigured"). */
    private static final Pattern MISSING_SCHEMA = Pattern.compile(
            "(?i)\\b(table|keyspace) '?\\S+'? (does not|doesn't) exist|unconfigured table");

    private CassandraErrors() {
    }

    /**
     * Whether a failed request would fail again however often it is retried: the role lacks the
     * permission, the password is refused, or the table or keyspace does not exist. A timeout, an
     * unavailable replica or an overloaded node may pass; these do not.
     */
    static boolean unrecoverable(Outcome failed) {
        if (failed.success()) {
            return false;
        }
        return UNRECOVERABLE.contains(failed.code()) || missingSchema(failed);
    }

    /** Whether a request failed because its table or keyspace does not exist (on the node that answered). */
    static boolean missingSchema(Outcome failed) {
        return !failed.success() && failed.code().equals(InvalidQueryException.class.getSimpleName())
                && MISSING_SCHEMA.matcher(failed.message()).find();
    }

    /**
     * Whether the driver failed a request without any node answering it: every node is down or
     * refuses connections (the code of an AllNodesFailedException that holds a node's answer is
     * that answer's, so this is silence only).
     */
    static boolean unreachable(Outcome failed) {
        return !failed.success() && (failed.code().equals(NoNodeAvailableException.class.getSimpleName())
                || failed.code().equals(AllNodesFailedException.class.getSimpleName()));
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
                    if (e instanceof CoordinatorException || e instanceof AuthenticationException) {
                        return e;
                    }
                }
            }
        }
        return error;
    }

    /**
     * What to check when a session cannot start, by what the nodes answered: a refused login
     * points at the credentials, a TLS failure at the TLS settings, a protocol refusal at the
     * protocol version; only silence points at the contact points.
     *
     * @param withCredentials whether a user name was given
     */
    static String startHint(Throwable error, boolean withCredentials) {
        List<Throwable> seen = everyCause(error);
        if (seen.stream().anyMatch(AuthenticationException.class::isInstance)) {
            return withCredentials
                    ? "The node refused the login: check User name and Password (a role that exists, with LOGIN = true)"
                    : "The cluster requires a login: fill in User name and Password";
        }
        if (seen.stream().anyMatch(SSLException.class::isInstance)) {
            return "The TLS handshake failed: check TLS and Check host names against the nodes' "
                    + "client_encryption_options, and the JVM's trust store (javax.net.ssl.trustStore)";
        }
        if (seen.stream().anyMatch(UnsupportedProtocolVersionException.class::isInstance)) {
            return "The nodes refused the native protocol version: leave Protocol version empty to negotiate, "
                    + "or give one they support";
        }
        return "Check Contact points and that Cassandra is up";
    }

    /** The error, its causes, and every node's errors when the driver tried several. */
    private static List<Throwable> everyCause(Throwable error) {
        List<Throwable> all = new ArrayList<>();
        List<Throwable> pending = new ArrayList<>(List.of(error));
        while (!pending.isEmpty() && all.size() < 64) {
            Throwable e = pending.remove(0);
            if (e == null || all.contains(e)) {
                continue;
            }
            all.add(e);
            pending.add(e.getCause());
            if (e instanceof AllNodesFailedException nodes) {
                nodes.getAllErrors().values().forEach(pending::addAll);
            }
        }
        return all;
    }

    /** The driver's message with the node that answered, or what was tried, so a person knows where to look. */
    static String message(Throwable error, CassandraClient client) {
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
