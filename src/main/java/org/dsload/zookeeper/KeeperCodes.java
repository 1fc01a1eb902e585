package org.dsload.zookeeper;

import java.util.Set;

import org.apache.zookeeper.KeeperException;
import org.dsload.core.Errors;
import org.dsload.core.Outcome;

/** Response codes and messages of failed ZooKeeper samples. */
final class KeeperCodes {
    private KeeperCodes() {
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
        // counted as a reply header: exact for the server's refusals, an estimate for lost connections
        long received = e instanceof KeeperException ? WireSize.reply(0) : 0;
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
