package org.dsload.zookeeper;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Whether the ensemble of one connection element can be reached, from what its sessions saw.
 * Once a session is lost (Curator found no server for the whole session timeout), every sample
 * of a session that is not connected fails at once instead of waiting out its connection and
 * request timeouts and retries again: with the ensemble gone, each sample would otherwise take
 * seconds, and a plan of fixed length would run many times longer. The first session that
 * connects again ends it; Curator keeps trying in the background meanwhile.
 */
final class EnsembleReach implements ConnectionStateListener {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final ClientSettings settings;
    private final String element;
    /** When a session was lost with no session connected since, in epoch ms; 0 while reachable. */
    private volatile long lostSince;

    EnsembleReach(ClientSettings settings, String element) {
        this.settings = settings;
        this.element = element;
    }

    /** Follows the states of one more session of the element. */
    void follow(CuratorFramework session) {
        session.getConnectionStateListenable().addListener(this);
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        if (state == ConnectionState.LOST) {
            if (lostSince == 0) {
                lostSince = System.currentTimeMillis();
            }
        } else if (state.isConnected()) {
            lostSince = 0;
        }
    }

    /**
     * @return why a request of {@code session} must fail at once, or null when it may be sent: the
     *         ensemble is taken as unreachable only while a session is lost and this one is not
     *         connected either
     */
    String unreachable(CuratorFramework session) {
        long since = lostSince;
        if (since == 0 || session.getZookeeperClient().isConnected()) {
            return null;
        }
        return "no server of " + settings.connectString + " can be reached: a session was lost at "
                + TIME.format(Instant.ofEpochMilli(since)) + " (no server answered it for its session timeout), "
                + "so samples fail at once until a session of " + element + " connects again "
                + "(Curator keeps trying in the background)";
    }
}
