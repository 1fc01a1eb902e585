package org.dsload.gui;

import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.format.JtlColumns;

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
        TIMING.set(timingOf(event));
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

    private static String timingOf(SampleEvent event) {
        // Saved as a sample variable (always so in runs from slaves): it came with the event.
        for (int i = 0; i < SampleEvent.getVarCount(); i++) {
            if (JtlColumns.TIMING.equals(SampleEvent.getVarName(i))) {
                String value = event.getVarValue(i);
                return value == null ? "" : value;
            }
        }
        // A local run delivers the event on the sampling thread, whose variables hold the value.
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        String value = variables == null ? null : variables.get(JtlColumns.TIMING);
        return value == null ? "" : value;
    }
}
