package org.dsload.zookeeper;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A retry policy that counts the retries it allows, per request. Curator retries a blocking call
 * inside that call, on the caller's thread, so a sampler that resets the thread's count before
 * its call and reads it after knows whether its request got through only on a later try: a
 * request that waited out a 30 s freeze over three retries is then shown as retried, not as one
 * slow success. A background call is retried on Curator's own threads: its count goes to the
 * {@link Counted} given as the call's context.
 */
final class CountedRetries implements RetryPolicy {
    private static final Logger log = LoggerFactory.getLogger(CountedRetries.class);
    private static final ThreadLocal<int[]> RETRIES = ThreadLocal.withInitial(() -> new int[1]);
    /**
     * The context of a background call, read from what Curator hands the policy as the sleeper
     * (its package-private OperationAndData); null where this Curator has no such method.
     */
    private static final MethodHandle CONTEXT = contextOfBackgroundCall();

    /** Counts the retries of one background call, given to Curator as the call's context. */
    interface Counted {
        void retried();
    }

    private final RetryPolicy policy;

    CountedRetries(RetryPolicy policy) {
        this.policy = policy;
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
        boolean retry = policy.allowRetry(retryCount, elapsedTimeMs, sleeper);
        if (retry) {
            Counted background = background(sleeper);
            if (background != null) {
                background.retried();
            } else {
                RETRIES.get()[0]++;
            }
        }
        return retry;
    }

    @Override
    public boolean allowRetry(Throwable exception) {
        return policy.allowRetry(exception);
    }

    private static Counted background(RetrySleeper sleeper) {
        if (CONTEXT == null || !CONTEXT.type().parameterType(0).isInstance(sleeper)) {
            return null;
        }
        try {
            return (Object) CONTEXT.invoke(sleeper) instanceof Counted counted ? counted : null;
        } catch (Throwable e) {
            return null;
        }
    }

    private static MethodHandle contextOfBackgroundCall() {
        try {
            Class<?> operation = Class.forName("org.apache.curator.framework.imps.OperationAndData", false,
                    org.apache.curator.framework.CuratorFramework.class.getClassLoader());
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(operation, MethodHandles.lookup());
            return lookup.findVirtual(operation, "getContext", MethodType.methodType(Object.class))
                    .asType(MethodType.methodType(Object.class, operation));
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("dsload: this Curator does not show the context of a background call ({}): requests in flight "
                    + "are not marked as retried", e.toString());
            return null;
        }
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
