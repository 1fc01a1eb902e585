package org.dsload.zookeeper;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;

/**
 * A retry policy that counts the retries it allows on the calling thread. Curator retries a
 * blocking call inside that call, on the caller's thread, so a sampler that resets the count
 * before its call and reads it after knows whether its request got through only on a later try:
 * a request that waited out a 30 s freeze over three retries is then shown as retried, not as
 * one slow success.
 */
final class CountedRetries implements RetryPolicy {
    private static final ThreadLocal<int[]> RETRIES = ThreadLocal.withInitial(() -> new int[1]);

    private final RetryPolicy policy;

    CountedRetries(RetryPolicy policy) {
        this.policy = policy;
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
        boolean retry = policy.allowRetry(retryCount, elapsedTimeMs, sleeper);
        if (retry) {
            RETRIES.get()[0]++;
        }
        return retry;
    }

    @Override
    public boolean allowRetry(Throwable exception) {
        return policy.allowRetry(exception);
    }

    /** Starts counting the retries of the next call on this thread. */
    static void reset() {
        RETRIES.get()[0] = 0;
    }

    /** Retries since the last {@link #reset()} on this thread. */
    static int count() {
        return RETRIES.get()[0];
    }
}
