package org.dsload.testing;

import java.time.Duration;

import org.dsload.process.Deadline;

/** What a thread is doing, as the JVM tells it: for a test that must act while another thread waits. */
public final class ThreadStates {
    private ThreadStates() {
    }

    /** Waits until the thread is parked or waiting (with or without a deadline); fails past the limit. */
    public static void awaitWaiting(Thread thread, Duration limit) throws InterruptedException {
        if (!Deadline.await(() -> waiting(thread.getState()), limit, Duration.ofMillis(1))) {
            throw new AssertionError(thread.getName() + " did not wait within " + limit.toMillis() + " ms: "
                    + thread.getState());
        }
    }

    private static boolean waiting(Thread.State state) {
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }
}
