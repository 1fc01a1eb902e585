package org.dsload.gui;

import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.dsload.core.SampleTiming;

/**
 * The results collector behind the Summary listener. It is JMeter's own collector (it writes a
 * results file when the listener names one) that also hands the listener each sample's
 * microsecond timing, which travels in the sample event or the sampling thread's variables
 * rather than in the result the listener is given.
 */
public class SummaryCollector extends ResultCollector {
    private static final long serialVersionUID = 1L;
    private static final ThreadLocal<String> TIMING = new ThreadLocal<>();

    @Override
    public void sampleOccurred(SampleEvent event) {
        TIMING.set(SampleTiming.of(event));
        try {
            super.sampleOccurred(event);
        } finally {
            TIMING.remove();
        }
    }

    /** The dsload timing of the event being delivered on this thread, or empty. */
    static String currentTiming() {
        String timing = TIMING.get();
        return timing == null ? "" : timing;
    }
}
