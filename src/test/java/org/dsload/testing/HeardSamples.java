package org.dsload.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;

/**
 * A sample listener that keeps every sample it hears, and the sampler thread's context that names listeners.
 * A test element, as JMeter's listener notifier takes only those.
 */
public final class HeardSamples extends AbstractTestElement implements SampleListener {
    private static final long serialVersionUID = 1L;
    private final transient List<SampleResult> results = new CopyOnWriteArrayList<>();

    /** What it heard so far, in order. */
    public List<SampleResult> results() {
        return results;
    }

    @Override
    public void sampleOccurred(SampleEvent e) {
        results.add(e.getResult());
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // kept when it ends
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // kept when it ends
    }

    /** Gives the calling thread fresh variables whose sampler package has these listeners, as a sampler thread of JMeter's. */
    public static JMeterVariables samplerThreadWith(SampleListener... listeners) {
        JMeterVariables variables = JMeterRuntime.freshVariables();
        variables.putObject(JMeterThread.PACKAGE_OBJECT, new SamplePackage(List.of(), List.of(listeners), List.of(),
                List.of(), List.of(), List.of(), List.of()));
        return variables;
    }
}
