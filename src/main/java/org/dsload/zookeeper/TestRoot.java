package org.dsload.zookeeper;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;

/**
 * The znode a test works under, claimed at test start: a root that holds znodes the test did
 * not create is refused (its samples would fail on them or, worse, delete them), unless the
 * element allows it. A root the test creates carries a marker in its data ({@value #MARKER}),
 * so that what a killed run left behind is recognised as dsload's and can be removed with
 * {@link ZnodeCleanup}.
 *
 * @param path      the root relative to the namespace, as samplers write it
 * @param fullPath  the root as the server sees it
 * @param created   whether this test created it (or a dsload test did: it carries the marker)
 * @param heldNodes whether it held znodes at the start
 */
record TestRoot(String path, String fullPath, boolean created, boolean heldNodes) {
    static final String MARKER = "dsload test root";

    /**
     * Checks the root at test start and creates it when it is absent. Its requests count in the
     * tally as the samplers' do: the servers count them too, once the gauges have taken their first
     * reading (in a distributed run, every engine claims its root after the first engine's reading).
     *
     * @param session a connected session of the element
     * @throws ConfigException when the root holds znodes and {@code allowUsed} is off, or cannot be read or created
     */
    static TestRoot claim(CuratorFramework session, ClientSettings settings, Fields f, String path, boolean allowUsed,
            String engine, NamespaceTally tally) throws InterruptedException {
        String fullPath = WriteStamps.fullPath(settings.namespace, path);
        try {
            Stat stat = session.checkExists().forPath(path);
            if (stat == null) {
                int slash = path.lastIndexOf('/');
                if (slash > 0) {
                    ParentZnodes.make(session, path.substring(0, slash), settings.namespace, tally);
                }
                try {
                    session.create().withMode(CreateMode.PERSISTENT).forPath(path,
                            marker(engine).getBytes(StandardCharsets.UTF_8));
                    tally.written(fullPath);
                    return new TestRoot(path, fullPath, true, false);
                } catch (KeeperException.NodeExistsException e) {
                    // another engine claimed it at the same moment (the create failed on the server and counts
                    // there as nothing): the root is there now, as if it had been at the check
                    stat = session.checkExists().forPath(path);
                    if (stat == null) {
                        throw e;
                    }
                }
            }
            tally.read(fullPath);
            if (stat.getNumChildren() == 0) {
                TestRoot root = new TestRoot(path, fullPath, ownedBy(session.getData().forPath(path)) != null, false);
                tally.read(fullPath);
                return root;
            }
            if (!allowUsed) {
                int nodes = session.getZookeeperClient().getZooKeeper().getAllChildrenNumber(fullPath);
                String owner = ownedBy(session.getData().forPath(path));
                throw f.error("testRoot", "is " + fullPath + ", which already holds " + nodes + " znodes "
                        + (owner != null ? "left by a dsload run that did not end cleanly (" + owner + ")"
                        : "that this test did not create")
                        + ": the test would fail on them or delete them. Remove them (" + ZnodeCleanup.command(settings, fullPath)
                        + "), choose another root, or set '" + f.fieldLabel("allowUsedRoot") + "' to true");
            }
            return new TestRoot(path, fullPath, false, true);
        } catch (ConfigException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw f.error("testRoot", "is " + fullPath + ", which cannot be checked or created: "
                    + ZooKeeperErrors.code(e) + " " + ZooKeeperErrors.message(e, settings));
        }
    }

    /** The data of a root this test creates: who made it, and when. */
    static String marker(String engine) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown host";
        }
        return MARKER + ", created " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " by " + engine + " on " + host;
    }

    /** @return the marker text when the data is a dsload root's, else null */
    static String ownedBy(byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        return text.startsWith(MARKER) ? text : null;
    }

    /**
     * What to remove at test end: the root with everything under it when this test created it,
     * everything under it when it was empty at start, nothing when it already held znodes (this
     * test cannot tell its own from those).
     */
    ZnodeCleanup.Scope cleanupScope() {
        if (heldNodes) {
            return ZnodeCleanup.Scope.NOTHING;
        }
        return created ? ZnodeCleanup.Scope.ROOT_AND_CHILDREN : ZnodeCleanup.Scope.CHILDREN;
    }
}
