package org.dsload.zookeeper;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a notification's latency starts: every write a dsload ZooKeeper sampler sends in this JVM
 * stamps, with {@link System#nanoTime()} taken just before the call, each Watch that is waiting on
 * that path. Writer and watcher may be different threads and different sessions (even different
 * connection elements): the clock is the JVM's monotonic one, so the figure is exact to the
 * microsecond. Only waiting watches are kept, so an idle registry costs one map look-up per write.
 */
final class WriteStamps {
    private static final Map<String, Set<WatchWait>> WAITING = new ConcurrentHashMap<>();

    private WriteStamps() {
    }

    static void waitFor(String fullPath, WatchWait wait) {
        WAITING.computeIfAbsent(fullPath, p -> ConcurrentHashMap.newKeySet()).add(wait);
    }

    static void stopWaiting(String fullPath, WatchWait wait) {
        WAITING.computeIfPresent(fullPath, (p, waits) -> {
            waits.remove(wait);
            return waits.isEmpty() ? null : waits;
        });
    }

    /** Called right before a write to {@code fullPath} is sent. */
    static void writing(String fullPath) {
        if (WAITING.isEmpty()) {
            return;
        }
        Set<WatchWait> waits = WAITING.get(fullPath);
        if (waits != null) {
            long now = System.nanoTime();
            for (WatchWait wait : waits) {
                wait.writeSent(now);
            }
        }
    }

    /** A path as the server sees it: the element's namespace in front. */
    static String fullPath(String namespace, String path) {
        if (namespace.isEmpty()) {
            return path;
        }
        return "/" + namespace + (path.equals("/") ? "" : path);
    }
}
