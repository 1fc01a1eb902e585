package org.dsload.core;

import java.util.function.Consumer;

import org.HdrHistogram.WriterReaderPhaser;

/**
 * Two holders of an interval's figures (a histogram, a tally): writers add to the active one inside
 * a critical section of a {@link WriterReaderPhaser} (HdrHistogram's mechanism behind its
 * recorders: two atomic increments, never a wait), and one reader at a time ends the interval by
 * swapping in the other, emptied, and waiting for the writers of the old one to leave it. What the
 * reader gets holds every write made before the swap and none after, and stays its own until the
 * next swap.
 *
 * <pre>
 * long entered = buffer.enter();
 * try {
 *     buffer.active().add(...); // as many as the critical section covers
 * } finally {
 *     buffer.exit(entered);
 * }
 * </pre>
 *
 * @param <T> the holder, written by the writers of one interval and read by the reader after it
 */
public final class IntervalBuffer<T> {
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final Consumer<T> empty;
    private volatile T active;
    /** The reader's: the holder of the interval that ended at the last swap. */
    private T inactive;

    /** @param empty empties a holder before it becomes the active one again */
    public IntervalBuffer(T first, T second, Consumer<T> empty) {
        this.active = first;
        this.inactive = second;
        this.empty = empty;
    }

    /** Opens a writer's critical section; the value it returns closes it ({@link #exit}). */
    public long enter() {
        return phaser.writerCriticalSectionEnter();
    }

    /** The holder a writer adds to, inside its critical section. */
    public T active() {
        return active;
    }

    public void exit(long entered) {
        phaser.writerCriticalSectionExit(entered);
    }

    /** Ends the interval: its holder, complete, valid until the next swap. One reader at a time. */
    public T swap() {
        phaser.readerLock();
        try {
            T next = inactive;
            empty.accept(next);
            T closed = active;
            active = next;
            phaser.flipPhase();
            inactive = closed;
            return closed;
        } finally {
            phaser.readerUnlock();
        }
    }
}
