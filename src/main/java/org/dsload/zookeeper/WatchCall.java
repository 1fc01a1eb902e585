package org.dsload.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.Outcome;
import org.dsload.core.Results.LimitedText;

/**
 * A watch set on a path and its notification awaited (the Watch operation). Its request is the
 * notification: the time is the latency from the write that triggered it to the event, measured
 * on the JVM's clock when the write was sent from this JVM ({@link WriteStamps}), else from the
 * znode's mtime, else from setting the watch. With a trigger, a second session makes the write
 * right after the watch is set.
 */
final class WatchCall {
    /** The notification's outcome and when its latency started and how long it was. */
    record Notified(Outcome outcome, long startMillis, long micros, String text) {
    }

    private final OperationSettings settings;
    private final ZooKeeperClient clients;
    private final String znode;
    private final String fullPath;
    private final byte[] triggerData;
    private Outcome failure;

    /** @param triggerData what a set or create trigger writes, else null */
    WatchCall(OperationSettings settings, ZooKeeperClient clients, String znode, byte[] triggerData) {
        this.settings = settings;
        this.clients = clients;
        this.znode = znode;
        this.fullPath = WriteStamps.fullPath(clients.settings().namespace, znode);
        this.triggerData = triggerData;
    }

    /**
     * Sets the sample's watch, makes its trigger write if it has one, and waits for the
     * notification, whose latency is the sample's time ({@link WatchTiming}); fills the sample.
     */
    static void sample(BlockingSample s, String znode) throws InterruptedException {
        OperationSettings c = s.settings();
        byte[] triggerData = c.trigger().equals("set") || c.trigger().equals("create") ? s.payload() : null;
        WatchCall call = new WatchCall(c, s.clients(), znode, triggerData);
        CountedRetries.reset();
        Notified notified = call.await(s.client());
        s.countRetried();
        if (notified == null) {
            s.notSent(call.failure());
            return;
        }
        WatchTiming.record(s.result(), notified.startMillis(), notified.micros());
        LimitedText text = null;
        if (c.limit() > 0 && notified.text() != null) {
            text = new LimitedText(c.limit()).append(notified.text());
        }
        s.fill(notified.outcome(), text);
    }

    String describe() {
        return "watch " + znode + (settings.trigger().equals(OperationSettings.TRIGGER_EXTERNAL) ? ""
                : " (" + settings.trigger() + " by a second session)");
    }

    /**
     * Sets the watch, makes the trigger write if there is one, and waits for the notification.
     *
     * @return null when the watch could not be set or the trigger write failed: then
     *         {@link #failure()} says why and no latency was measured
     */
    Notified await(CuratorFramework curator) throws InterruptedException {
        WatchWait wait = new WatchWait();
        WriteStamps.waitFor(fullPath, wait);
        try {
            try {
                if (curator.checkExists().usingWatcher(wait).forPath(znode) != null) {
                    clients.tally().read(fullPath);
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                Outcome cause = ZooKeeperErrors.failure(e, clients.settings(), settings.accepted(), WireSize.pathRequest(znode));
                failure = new Outcome(cause.success(), cause.code(), "setting the watch failed: " + cause.message(),
                        cause.sentBytes(), cause.receivedBytes());
                return null;
            }
            wait.armed(System.nanoTime());
            long armedWall = System.currentTimeMillis();
            if (!settings.trigger().equals(OperationSettings.TRIGGER_EXTERNAL)) {
                Outcome written = triggerWrite();
                if (written != null) {
                    failure = written;
                    removeQuietly(curator, wait);
                    return null;
                }
            }
            if (!wait.await(settings.watchTimeout())) {
                removeQuietly(curator, wait);
                return new Notified(Outcome.failed(ZooKeeperSampler.WATCH_TIMEOUT, "no notification for " + znode
                        + " within the watch timeout of " + settings.watchTimeout() + " ms"
                        + (settings.trigger().equals(OperationSettings.TRIGGER_EXTERNAL)
                        ? " (Trigger is external: did anything write to it?)" : ""), WireSize.pathRequest(znode),
                        WireSize.reply(WireSize.STAT)), armedWall, settings.watchTimeout() * 1000, null);
            }
            if (wait.expired()) {
                return new Notified(Outcome.failed(KeeperException.Code.SESSIONEXPIRED.name(),
                        "the session expired while waiting for a notification on " + znode, WireSize.pathRequest(znode),
                        WireSize.reply(WireSize.STAT)), armedWall, (System.nanoTime() - wait.armedNanos()) / 1000, null);
            }
            return notified(curator, wait, armedWall);
        } finally {
            WriteStamps.stopWaiting(fullPath, wait);
        }
    }

    /** Why {@link #await} returned null. */
    Outcome failure() {
        return failure;
    }

    /** @return null, or the failed write */
    private Outcome triggerWrite() throws InterruptedException {
        CuratorFramework writer = clients.triggerClient();
        try {
            WriteStamps.writing(fullPath);
            switch (settings.trigger()) {
                case "set" -> writer.setData().forPath(znode, triggerData);
                case "create" -> writer.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                        .forPath(znode, triggerData);
                default -> writer.delete().forPath(znode);
            }
            clients.tally().written(fullPath);
            return null;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return Outcome.failed(ZooKeeperErrors.code(e), "the trigger write (" + settings.trigger() + " " + znode
                    + " by a second session) failed: " + ZooKeeperErrors.message(e, clients.settings()),
                    WireSize.pathRequest(znode), 0);
        }
    }

    private Notified notified(CuratorFramework curator, WatchWait wait, long armedWall) throws InterruptedException {
        Watcher.Event.EventType type = wait.event().getType();
        long micros;
        String how;
        if (wait.writeNanos() != 0 && wait.writeNanos() <= wait.eventNanos()) {
            micros = (wait.eventNanos() - wait.writeNanos()) / 1000;
            how = "from the write sent in this JVM to the event";
        } else {
            Stat stat = null;
            if (type == Watcher.Event.EventType.NodeDataChanged || type == Watcher.Event.EventType.NodeCreated) {
                try {
                    stat = curator.checkExists().forPath(znode);
                    if (stat != null) {
                        clients.tally().read(fullPath);
                    }
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    stat = null;
                }
            }
            if (stat != null && stat.getMtime() <= wait.eventWallMillis()) {
                micros = (wait.eventWallMillis() - stat.getMtime()) * 1000;
                how = "writer outside this JVM: from the znode's mtime (server clock) to the event (this machine's "
                        + "clock), millisecond resolution";
            } else {
                micros = (wait.eventNanos() - wait.armedNanos()) / 1000;
                how = "writer outside this JVM and no mtime to go by: from setting the watch to the event";
            }
        }
        long start = Math.max(armedWall, wait.eventWallMillis() - micros / 1000);
        Outcome outcome = Outcome.ok(ZooKeeperSampler.OK, type.name() + " on " + znode + " (" + how + ")",
                WireSize.pathRequest(znode), WireSize.reply(WireSize.STAT) + WireSize.reply(WireSize.string(znode) + 8));
        return new Notified(outcome, start, micros, type.name() + " " + znode + " after " + micros + " µs");
    }

    private void removeQuietly(CuratorFramework curator, Watcher watcher) {
        try {
            curator.watchers().remove(watcher).ofType(Watcher.WatcherType.Any).quietly().inBackground().forPath(znode);
        } catch (Exception e) {
            // the watch goes with the session at the latest
        }
    }
}
