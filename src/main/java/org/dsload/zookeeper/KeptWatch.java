package org.dsload.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * A watch that stays: when it fires, the path is read again in the background with the same
 * watcher, as a scheduler's executor re-reads a job node it was told changed. One instance per
 * session, operation and path, so that reading the same node again does not pile up watchers.
 */
final class KeptWatch implements Watcher {
    private final CuratorFramework client;
    private final ZooKeeperClient owner;
    private final ZnodeOperation operation;
    private final String path;

    KeptWatch(CuratorFramework client, ZooKeeperClient owner, ZnodeOperation operation, String path) {
        this.client = client;
        this.owner = owner;
        this.operation = operation;
        this.path = path;
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() == Event.EventType.None) {
            return;
        }
        owner.notified();
        if (client.getState() != CuratorFrameworkState.STARTED) {
            return;
        }
        // A read that found its node counts, as on the server, for the cross-check.
        BackgroundCallback counted = (curator, answer) -> {
            if (answer.getResultCode() == KeeperException.Code.OK.intValue()) {
                owner.tally().read(WriteStamps.fullPath(owner.settings().namespace, path));
            }
        };
        try {
            if (operation == ZnodeOperation.CHILDREN && event.getType() != Event.EventType.NodeDeleted) {
                client.getChildren().usingWatcher(this).inBackground(counted).forPath(path);
            } else if (operation == ZnodeOperation.GET && event.getType() != Event.EventType.NodeDeleted) {
                client.getData().usingWatcher(this).inBackground(counted).forPath(path);
            } else {
                // A deleted node can only be watched for its return.
                client.checkExists().usingWatcher(this).inBackground(counted).forPath(path);
            }
        } catch (Exception e) {
            // The session is closing; the watch ends with it.
        }
    }
}
