package org.dsload.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One watch a Watch sample waits on: when it was set, when the first write to its path was sent
 * from this JVM after that, and when the notification arrived.
 */
final class WatchWait implements Watcher {
    private final CountDownLatch fired = new CountDownLatch(1);
    private volatile long armedNanos;
    private volatile long writeNanos;
    private volatile long eventNanos;
    private volatile long eventWallMillis;
    private volatile WatchedEvent event;
    private volatile boolean expired;

    void armed(long nanos) {
        armedNanos = nanos;
    }

    /** The first write wins: it is the one that can have triggered a one-time watch. */
    synchronized void writeSent(long nanos) {
        if (writeNanos == 0) {
            writeNanos = nanos;
        }
    }

    @Override
    public void process(WatchedEvent received) {
        long now = System.nanoTime();
        if (received.getType() == Event.EventType.None) {
            // Connection state changes: a watch survives a reconnection, not an expired session.
            if (received.getState() == Event.KeeperState.Expired) {
                expired = true;
                fired.countDown();
            }
            return;
        }
        if (event == null) {
            eventNanos = now;
            eventWallMillis = System.currentTimeMillis();
            event = received;
            fired.countDown();
        }
    }

    /** @return false if nothing arrived within the time */
    boolean await(long millis) throws InterruptedException {
        return fired.await(millis, TimeUnit.MILLISECONDS);
    }

    boolean expired() {
        return expired && event == null;
    }

    WatchedEvent event() {
        return event;
    }

    long armedNanos() {
        return armedNanos;
    }

    /** 0 when no write from this JVM was seen. */
    long writeNanos() {
        return writeNanos;
    }

    long eventNanos() {
        return eventNanos;
    }

    long eventWallMillis() {
        return eventWallMillis;
    }
}
