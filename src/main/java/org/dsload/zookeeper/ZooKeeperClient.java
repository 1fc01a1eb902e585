package org.dsload.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.Watcher;
import org.dsload.core.ConnectionCounting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper sessions of one ZooKeeper Connection element: either one client shared by every
 * thread, or one client per JMeter thread, opened at the thread's first sample and closed when
 * the thread ends (S4's scheduler model: each executor is a session of its own, holding its
 * ephemeral nodes and watches). A second shared session, opened on first use, makes the writes
 * that trigger the Watch operation's notifications, so that writer and watcher are different
 * clients.
 */
public final class ZooKeeperClient implements AutoCloseable, ConnectionCounting {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperClient.class);

    /** Thrown when one more per-thread session would pass the element's limit. */
    static final class SessionLimitException extends Exception {
        private static final long serialVersionUID = 1L;

        SessionLimitException(String message) {
            super(message);
        }
    }

    private final ClientSettings settings;
    private final String name;
    private final boolean perThread;
    private final int maxSessions;
    private final CuratorFramework shared;
    private final Map<Thread, CuratorFramework> threads = new ConcurrentHashMap<>();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicLong notifications = new AtomicLong();
    private final AutoCloseable gauges;
    private final Map<CuratorFramework, Map<String, KeptWatch>> kept = new ConcurrentHashMap<>();
    private final Watcher counting = event -> {
        if (event.getType() != Watcher.Event.EventType.None) {
            notified();
        }
    };
    private final EnsembleReach reach;
    /** The test's root, removed at test end when the element says so; or null. */
    private final TestRoot root;
    private final boolean cleanUp;
    private final NamespaceTally tally;
    private volatile CuratorFramework trigger;
    private volatile boolean closed;

    ZooKeeperClient(ClientSettings settings, String name, boolean perThread, int maxSessions, CuratorFramework shared,
            AutoCloseable gauges, NamespaceTally tally, TestRoot root, boolean cleanUp) {
        this.settings = settings;
        this.tally = tally;
        this.name = name;
        this.perThread = perThread;
        this.maxSessions = maxSessions;
        this.shared = shared;
        this.gauges = gauges;
        this.root = root;
        this.cleanUp = cleanUp;
        this.reach = new EnsembleReach(settings, name);
        if (shared != null) {
            reach.follow(shared);
        }
    }

    /** What the samplers had the ensemble do, for the cross-check against its counters. */
    NamespaceTally tally() {
        return tally;
    }

    /** The calling thread's client: the shared one, or the thread's own, opened now if it has none. */
    CuratorFramework client() throws SessionLimitException {
        if (!perThread) {
            return shared;
        }
        Thread thread = Thread.currentThread();
        CuratorFramework own = threads.get(thread);
        if (own != null) {
            return own;
        }
        if (closed) {
            throw new SessionLimitException("the test has ended; the sessions of " + name + " are closed");
        }
        if (opened.incrementAndGet() > maxSessions) {
            opened.decrementAndGet();
            throw new SessionLimitException(name + " already holds " + maxSessions + " sessions (its Max sessions); "
                    + "raise it or run fewer threads");
        }
        own = settings.newClient("dsload-zk-" + thread.getName());
        reach.follow(own);
        own.start();
        threads.put(thread, own);
        return own;
    }

    /**
     * The session that writes to trigger watches, distinct from every sampling session. It is
     * connected before it is first handed out, so that no notification latency includes its
     * connection set-up.
     */
    CuratorFramework triggerClient() throws InterruptedException {
        CuratorFramework current = trigger;
        if (current == null) {
            synchronized (this) {
                current = trigger;
                if (current == null) {
                    current = settings.newClient("dsload-zk-trigger");
                    reach.follow(current);
                    current.start();
                    current.blockUntilConnected(settings.connectionTimeoutMillis, TimeUnit.MILLISECONDS);
                    trigger = current;
                }
            }
        }
        return current;
    }

    /** Closes the calling thread's own session, if it has one (its ephemeral nodes go with it). */
    void releaseCurrentThread() {
        if (!perThread) {
            return;
        }
        CuratorFramework own = threads.remove(Thread.currentThread());
        if (own != null) {
            kept.remove(own);
            opened.decrementAndGet();
            closeQuietly(own);
        }
    }

    /** The watcher of one-time watches: it counts what fires. One instance, so a path is watched once per session. */
    Watcher onceWatcher() {
        return counting;
    }

    /** The watch that stays on {@code path} for this session and operation. */
    KeptWatch keptWatch(CuratorFramework client, ZnodeOperation operation, String path) {
        return kept.computeIfAbsent(client, c -> new ConcurrentHashMap<>())
                .computeIfAbsent(operation.name() + " " + path, k -> new KeptWatch(client, this, operation, path));
    }

    /** @return why a request of {@code session} must fail at once (the ensemble is out of reach), or null */
    String unreachable(CuratorFramework session) {
        return reach.unreachable(session);
    }

    boolean perThread() {
        return perThread;
    }

    ClientSettings settings() {
        return settings;
    }

    String name() {
        return name;
    }

    /** Sessions open now (per-thread mode) or 1. */
    int sessions() {
        return perThread ? threads.size() : 1;
    }

    void notified() {
        notifications.incrementAndGet();
    }

    /** Notifications received by watches left by Get, Exists and Children. */
    long notifications() {
        return notifications.get();
    }

    @Override
    public int openConnections() {
        int open = 0;
        if (shared != null && connected(shared)) {
            open++;
        }
        for (CuratorFramework client : threads.values()) {
            if (connected(client)) {
                open++;
            }
        }
        CuratorFramework t = trigger;
        if (t != null && connected(t)) {
            open++;
        }
        return open;
    }

    private static boolean connected(CuratorFramework client) {
        return client.getState() == CuratorFrameworkState.STARTED && client.getZookeeperClient().isConnected();
    }

    @Override
    public void close() {
        closed = true;
        if (gauges != null) {
            // the last reading comes before the clean-up, whose requests are none of the samplers'
            try {
                gauges.close();
            } catch (Exception e) {
                log.warn("dsload: stopping the gauges of {}: {}", name, e.toString());
            }
        }
        if (root != null && cleanUp) {
            removeRoot();
        }
        kept.clear();
        List<CuratorFramework> all = new ArrayList<>(threads.values());
        threads.clear();
        if (shared != null) {
            all.add(shared);
        }
        if (trigger != null) {
            all.add(trigger);
        }
        if (all.size() <= 2) {
            all.forEach(ZooKeeperClient::closeQuietly);
        } else {
            // Thousands of sessions each wait for the server to confirm the close: do it a few at a time.
            ExecutorService closer = Executors.newFixedThreadPool(8, r -> {
                Thread t = new Thread(r, "dsload-zk-close");
                t.setDaemon(true);
                return t;
            });
            all.forEach(client -> closer.execute(() -> closeQuietly(client)));
            closer.shutdown();
            try {
                if (!closer.awaitTermination(60, TimeUnit.SECONDS)) {
                    log.warn("dsload: {} sessions of {} still closing after 60 s; leaving them to the server's "
                            + "session timeout", all.size(), name);
                    closer.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Removes the test's znodes with a session of its own, bounded by the element's timeouts. */
    private void removeRoot() {
        CuratorFramework session = settings.newClient("dsload-zk-cleanup");
        try {
            session.start();
            String outcome;
            if (!session.blockUntilConnected(settings.connectionTimeoutMillis, TimeUnit.MILLISECONDS)) {
                outcome = "not removed: no server of " + settings.connectString + " answered within the connection "
                        + "timeout; remove them with " + ZnodeCleanup.command(settings, root.fullPath());
            } else {
                ZnodeCleanup.Result result = ZnodeCleanup.remove(session.getZookeeperClient().getZooKeeper(),
                        root.fullPath(), root.cleanupScope());
                outcome = root.cleanupScope() == ZnodeCleanup.Scope.NOTHING
                        ? "left in place: the root held znodes before the test, which cannot tell its own from them"
                        : result.ok() ? "removed " + result.removed() + " znodes in " + result.millis() + " ms"
                        : "removed " + result.removed() + " znodes, then " + result.problem() + "; remove the rest with "
                        + ZnodeCleanup.command(settings, root.fullPath());
            }
            String line = "dsload zookeeper: " + name + ": test root " + root.fullPath() + ": " + outcome;
            System.out.println(line); // NOSONAR the console is where a headless user looks
            log.info(line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("dsload: {}: removing the test root {} failed: {}", name, root.fullPath(), e.toString());
        } finally {
            closeQuietly(session);
        }
    }

    private static void closeQuietly(CuratorFramework client) {
        try {
            client.close();
        } catch (RuntimeException e) {
            log.debug("closing a ZooKeeper client", e);
        }
    }
}
