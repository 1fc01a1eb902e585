package org.dsload.core.inflight;

/**
 * One sampler clone's requests in flight as its {@link InFlightSampler} holds them: made at the
 * thread's first sample, stopped by a stopping test, closed when the thread ends or the sampler's
 * settings change.
 */
public interface InFlightCall {
    /** Makes a waiting sample return; from another thread (a stopping test). */
    void stop();

    /** The thread ends: outstanding requests are cancelled and every row left is reported, under {@code label}. */
    void close(String label);
}
