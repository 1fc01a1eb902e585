package org.dsload.generator;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.dsload.core.EngineServices;

/**
 * dsload Generator Metrics: records the generator's own figures ({@link EngineMetrics}) in a plan
 * that has no other dsload element, such as one that uses only JMeter's HTTP sampler. Plans with
 * a dsload connection or arrival element record them without it.
 */
@TestElementMetadata(labelResource = "displayName")
public class GeneratorMetricsElement extends AbstractTestElement implements ConfigElement, TestStateListener, TestBean {
    private static final long serialVersionUID = 1L;

    @Override
    public void testStarted() {
        EngineServices.acquire(this, null);
    }

    @Override
    public void testStarted(String host) {
        EngineServices.acquire(this, host);
    }

    @Override
    public void testEnded() {
        EngineServices.release(this);
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // nothing to merge
    }

    @Override
    public boolean expectsModification() {
        return false;
    }
}
