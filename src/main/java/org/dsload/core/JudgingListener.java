package org.dsload.core;

import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.visualizers.Visualizer;

/**
 * What the dsload listeners that judge a test's samples as they end share (Capacity Steps, Find Max
 * Rate): one instance for every thread, which gets each sample through {@link #sampleOccurred} and
 * starts with {@link #started} on every engine; a {@link Visualizer}, as JMeter files a TestBean under
 * Listener only then.
 */
public abstract class JudgingListener extends AbstractTestElement implements SampleListener, TestStateListener, TestBean,
        NoThreadClone, Visualizer {
    private static final long serialVersionUID = 1L;

    /** The test starts on this engine; {@code host} is the slave's name in a distributed test, else null. */
    protected abstract void started(String host);

    @Override
    public final void testStarted() {
        started(null);
    }

    @Override
    public final void testStarted(String host) {
        started(host);
    }

    @Override
    public final void testEnded(String host) {
        testEnded();
    }

    /** Never called: samples arrive through sampleOccurred. */
    @Override
    public final void add(SampleResult sample) {
        // samples arrive through sampleOccurred
    }

    @Override
    public final boolean isStats() {
        return false;
    }

    @Override
    public final void sampleStarted(SampleEvent e) {
        // judged when it ends
    }

    @Override
    public final void sampleStopped(SampleEvent e) {
        // judged when it ends
    }
}
