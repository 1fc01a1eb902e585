package org.dsload.ycsb;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a YCSB Workload element shares with its operation samplers during one test, whatever the
 * store: the workload's state and the one-time set-up (a table to create) that the first load
 * sample performs while the other load threads wait for it.
 */
public final class WorkloadRun implements AutoCloseable {
    private final Workload workload;
    private final AtomicBoolean setUpClaimed = new AtomicBoolean();
    private final CompletableFuture<String> setUp = new CompletableFuture<>();

    public WorkloadRun(Workload workload) {
        this.workload = workload;
    }

    public Workload workload() {
        return workload;
    }

    /** True for exactly one caller, who must then call {@link #setUpDone}. */
    boolean claimSetUp() {
        return setUpClaimed.compareAndSet(false, true);
    }

    /** @param failure null when the store is ready, else why not */
    void setUpDone(String failure) {
        setUp.complete(failure);
    }

    /** Null when the store is ready, else why it is not; waits for the claimant up to {@code seconds}. */
    String awaitSetUp(long seconds) {
        try {
            return setUp.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return "not ready within " + seconds + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for it";
        } catch (ExecutionException e) {
            return e.getCause().toString();
        }
    }

    @Override
    public void close() {
        setUp.complete("the test ended");
    }
}
