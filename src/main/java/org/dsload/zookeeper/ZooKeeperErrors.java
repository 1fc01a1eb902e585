package org.dsload.zookeeper;

import java.util.Set;

import org.apache.zookeeper.KeeperException;
import org.dsload.core.Errors;
import org.dsload.core.Outcome;

/** Response codes and messages of failed ZooKeeper samples. */
final class ZooKeeperErrors {
    private ZooKeeperErrors() {
    }

    /** Codes the client raises without a reply from a server. */
    private static final Set<KeeperException.Code> CLIENT_SIDE = Set.of(KeeperException.Code.CONNECTIONLOSS,
            KeeperException.Code.SESSIONEXPIRED, KeeperException.Code.OPERATIONTIMEOUT,
            KeeperException.Code.REQUESTTIMEOUT);

    /** Codes that the same request meets again however often it is sent: the ACL denies it, the session's login failed. */
    private static final Set<String> UNRECOVERABLE = Set.of(KeeperException.Code.NOAUTH.name(),
            KeeperException.Code.AUTHFAILED.name());

    /**
     * Whether a failed request would fail again however often it is retried: the node's ACL does
     * not allow this session (NOAUTH, as for a wrong digest password), or the session's
     * authentication failed (AUTHFAILED). A lost connection or a missing node may pass; these do not.
     */
    static boolean unrecoverable(Outcome failed) {
        return !failed.success() && UNRECOVERABLE.contains(failed.code());
    }

    /**
     * A request's outcome as a sample shows it, once Curator retried it {@code retries} times: a
     * success keeps its success but says so in its code ({@value ZooKeeperSampler#RETRIED}), so
     * that the summary's status codes count it; a failure says how many retries came before.
     */
    static Outcome retried(Outcome outcome, int retries) {
        if (retries == 0) {
            return outcome;
        }
        String times = retries + (retries == 1 ? " retry" : " retries");
        if (outcome.success()) {
            return Outcome.ok(outcome.code() + ZooKeeperSampler.RETRIED, outcome.message() + " (after " + times
                    + " of the retry policy)", outcome.sentBytes(), outcome.receivedBytes());
        }
        return Outcome.failed(outcome.code(), outcome.message() + " (after " + times + ")", outcome.sentBytes(),
                outcome.receivedBytes());
    }

    /**
     * Whether a request failed for want of a connection to the ensemble: sent on none (the session
     * lost, see {@link EnsembleReach}), or cut off with the connection it was on.
     */
    static boolean unreachable(Outcome failed) {
        return !failed.success() && failed.code().equals(KeeperException.Code.CONNECTIONLOSS.name());
    }

    /** ZooKeeper's own code name (NONODE, NODEEXISTS, BADVERSION, CONNECTIONLOSS ...), else the exception's name. */
    static String code(Throwable e) {
        if (e instanceof KeeperException keeper) {
            return keeper.code().name();
        }
        if (e instanceof IllegalArgumentException) {
            // Curator and ZooKeeper check paths before sending: "Path must start with / character".
            return KeeperException.Code.BADARGUMENTS.name();
        }
        return e.getClass().getSimpleName();
    }

    /**
     * A request that ended in an exception: failed, or a success when its code is among the
     * sampler's accepted codes.
     *
     * @param sent bytes the request put on the wire
     */
    static Outcome failure(Exception e, ClientSettings settings, Set<String> accepted, long sent) {
        String code = code(e);
        String message = message(e, settings);
        // a server's refusal is a reply header; a code the client made up itself (no connection, no
        // answer in time, a session it knows to be gone) received nothing
        long received = e instanceof KeeperException keeper && !CLIENT_SIDE.contains(keeper.code()) ? WireSize.reply(0) : 0;
        if (accepted.contains(code)) {
            return Outcome.ok(code, message + " (an accepted code)", sent, received);
        }
        return Outcome.failed(code, message, sent, received);
    }

    static String message(Throwable e, ClientSettings settings) {
        String text = e instanceof KeeperException keeper && keeper.getMessage() != null ? keeper.getMessage()
                : Errors.describe(e);
        if (e instanceof KeeperException keeper) {
            switch (keeper.code()) {
                case CONNECTIONLOSS, OPERATIONTIMEOUT, REQUESTTIMEOUT -> text += " (no answer from " + settings.connectString
                        + " within the connection, request and retry settings: at most about "
                        + settings.worstCaseMillis() + " ms)";
                case SESSIONEXPIRED -> text += " (the server dropped the session after its session timeout; "
                        + "ephemeral nodes and watches of that session are gone)";
                case NOAUTH -> text += " (the node's ACL does not allow this "
                        + (settings.authUser.isEmpty() ? "unauthenticated session" : "digest user") + ")";
                default -> {
                }
            }
        }
        return text;
    }
}
