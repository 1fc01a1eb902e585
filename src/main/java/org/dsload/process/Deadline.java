package org.dsload.process;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a condition with a time limit, polling. */
public final class Deadline {
    private Deadline() {
    }

    /** Polls the condition until it holds (true) or the limit has passed (false). */
    public static boolean await(BooleanSupplier condition, Duration limit, Duration poll) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(Math.max(1, poll.toMillis()));
        }
        return true;
    }

    /** Sleeps; an interrupt ends the sleep with an unchecked exception, keeping the interrupt. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
