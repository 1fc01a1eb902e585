package org.dsload.ycsb;

import java.util.concurrent.CompletionStage;

import org.dsload.core.Outcome;

/**
 * A store whose client sends without waiting, so that one thread can keep several operations in
 * flight ({@link InFlightPhase}): each call returns at once, and its stage completes later, on the
 * client's own thread, with the operation's {@link Outcome} (never exceptionally). Records and
 * outcomes are those of {@link YcsbBinding}'s blocking calls.
 */
public interface AsyncYcsbBinding extends YcsbBinding {

    /** @see YcsbBinding#read */
    CompletionStage<Outcome> readAsync(String key, int field);

    /** @see YcsbBinding#scan */
    CompletionStage<Outcome> scanAsync(String startKey, int count, int field);

    /** @see YcsbBinding#update */
    CompletionStage<Outcome> updateAsync(String key, int field, String[] values);

    /** @see YcsbBinding#insert */
    CompletionStage<Outcome> insertAsync(String key, String[] values);

    /**
     * How long an operation may stay outstanding before the thread gives it up as timed out: a
     * backstop, since the client ends its requests at its own timeout.
     */
    long backstopNanos();

    /** What an operation given up at the backstop reports. */
    Outcome timedOut();

    /**
     * Why this binding cannot keep operations in flight with its connection's settings (for the
     * sampler's refusal, naming what to change), or null when it can.
     */
    default String inFlightRefused() {
        return null;
    }

    /**
     * The thread's operations in flight ended (nothing is outstanding any more): what the binding
     * opened for them alone goes. The client stays: it is the connection element's.
     */
    default void release() {
    }
}
