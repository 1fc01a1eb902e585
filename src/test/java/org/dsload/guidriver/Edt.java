package org.dsload.guidriver;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import javax.swing.SwingUtilities;

/** Work on Swing's event thread from the driver's thread, always with a time limit. */
final class Edt {
    static final Duration STEP = Duration.ofSeconds(30);

    private Edt() {
    }

    static <T> T call(Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        SwingUtilities.invokeLater(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable t) { // NOSONAR reported to the driver, which reports it
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(STEP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the GUI did not answer within " + STEP.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    /** Lets the event thread finish what was queued before (actions JMeter posts with invokeLater). */
    static void settle() {
        run(() -> { });
        run(() -> { });
    }

    /** Polls a condition, checked on the event thread, until it holds. */
    static void await(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!call(condition::getAsBoolean)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up after " + limit.toSeconds() + " s waiting for " + what);
            }
            sleep(50);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
