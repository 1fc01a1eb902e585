package org.dsload.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Makes the missing parents of a znode as containers, the way Curator's
 * {@code creatingParentContainersIfNeeded} does (an Exists for each ancestor, a create for each
 * one missing), but counting each request for the cross-check against the servers' counters.
 */
final class ParentZnodes {

    private ParentZnodes() {
    }

    /**
     * @param parent    the parent path, relative to the Curator namespace
     * @param namespace the Curator namespace, for the paths counted
     */
    static void make(CuratorFramework curator, String parent, String namespace, NamespaceTally tally) throws Exception {
        int next = 0;
        while (next >= 0 && next < parent.length()) {
            next = parent.indexOf('/', next + 1);
            String ancestor = next < 0 ? parent : parent.substring(0, next);
            if (ancestor.isEmpty() || ancestor.equals("/")) {
                continue;
            }
            if (curator.checkExists().forPath(ancestor) != null) {
                tally.read(WriteStamps.fullPath(namespace, ancestor));
                continue;
            }
            try {
                curator.create().withMode(CreateMode.CONTAINER).forPath(ancestor);
                tally.written(WriteStamps.fullPath(namespace, ancestor));
            } catch (KeeperException.NodeExistsException e) {
                // another client made it meanwhile: the create failed on the server and counts there as nothing
            }
        }
    }
}
