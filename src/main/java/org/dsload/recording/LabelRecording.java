package org.dsload.recording;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.jmeter.samplers.SampleListener;
import org.dsload.core.IntervalBuffer;

/**
 * One label's recording on one engine. Sampler threads add each sample to the active interval
 * inside a critical section of an {@link IntervalBuffer} (HdrHistogram's writer-reader phaser, the
 * mechanism behind its Recorder, here around the histograms and the counts together); once a second the flusher swaps
 * in an empty interval and waits for the writers of the old one to leave it, so the histogram and
 * the counts of a second hold exactly the same samples, and no sampler thread ever waits.
 */
final class LabelRecording {
    /** Distinct failure messages kept per label; more are counted under one message (as in the summary). */
    static final int MAX_MESSAGES = 100;
    static final String OTHER_MESSAGES = "(other error messages)";

    /** Where the aggregate rows of a label go: the listeners in scope of its sampler, in the group it runs in. */
    record Listeners(List<SampleListener> listeners, String threadGroup) {
    }

    final String label;
    private final IntervalBuffer<IntervalTally> tallies = new IntervalBuffer<>(new IntervalTally(), new IntervalTally(),
            IntervalTally::reset);
    private final Set<String> messages = ConcurrentHashMap.newKeySet();
    private volatile Listeners listeners;

    LabelRecording(String label) {
        this.label = label;
    }

    void record(RecordedSample sample) {
        String messageKey = sample.success() ? "" : messageKey(sample.message());
        long entered = tallies.enter();
        try {
            tallies.active().add(sample, messageKey);
        } finally {
            tallies.exit(entered);
        }
    }

    private String messageKey(String message) {
        String m = message == null ? "" : message;
        if (messages.contains(m)) {
            return m;
        }
        if (messages.size() < MAX_MESSAGES) {
            messages.add(m);
            return m;
        }
        return OTHER_MESSAGES;
    }

    /**
     * Ends the active interval: the returned tally holds every sample recorded before this call
     * and none after. Flusher thread only; the tally is valid until the next swap.
     */
    IntervalTally swap() {
        return tallies.swap();
    }

    /** Remembers where this label's aggregate rows go, from the first sampler thread that knows. */
    void listenersOnce(java.util.function.Supplier<Listeners> found) {
        if (listeners == null) {
            synchronized (this) {
                if (listeners == null) {
                    listeners = found.get();
                }
            }
        }
    }

    Listeners listeners() {
        return listeners;
    }
}
