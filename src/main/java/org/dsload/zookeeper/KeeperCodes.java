package org.dsload.zookeeper;

import org.apache.zookeeper.KeeperException;
import org.dsload.core.Errors;

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
