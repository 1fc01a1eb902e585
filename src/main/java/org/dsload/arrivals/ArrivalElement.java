package org.dsload.arrivals;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.timers.Timer;
import org.apache.jorphan.util.JMeterStopTestException;
import org.dsload.core.ConfigException;
import org.dsload.core.ConfigRefusal;
import org.dsload.core.EngineServices;
import org.dsload.core.IntendedStart;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.TimingValue;

/**
 * What the arrival elements share. Each is a timer, so it runs right before every sampler in its
 * scope and can leave that sample's intended start ({@link IntendedStart}); dsload samplers put
 * it into their {@code dsload_timing} value themselves. For JMeter's own samplers (HTTP ...) the
 * element is also a post-processor: it writes the value with the sample's start and the delay,
 * before JMeter copies the sample variables into the result.
 */
abstract class ArrivalElement extends AbstractTestElement implements Timer, PostProcessor, TestStateListener, TestBean {
    private static final long serialVersionUID = 1L;
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    @Override
    public void process() {
        IntendedStart.Stamp stamp = IntendedStart.take();
        if (stamp == null) {
            return; // a dsload sampler used it, or there was none
        }
        JMeterContext context = getThreadContext();
        SampleResult result = context.getPreviousResult();
        if (result == null || context.getVariables() == null) {
            return;
        }
        long delay = stamp.delayMicros(result);
        IntendedStart.record(delay);
        stamp.label(result);
        context.getVariables().put(SampleTiming.VARIABLE,
                TimingValue.format(result.getStartTime(), TimingValue.NONE, delay, stamp.dropped()));
    }

    /**
     * A setting that cannot work stops the test with its message, printed once (the first
     * sample of every thread would otherwise report it again) and left for the runner as the
     * run's refusal.
     */
    protected RuntimeException refuse(ConfigException e) {
        if (REPORTED.add(e.getMessage())) {
            ConfigRefusal.say(e.getMessage());
        }
        return new JMeterStopTestException(e.getMessage());
    }

    @Override
    public void testStarted() {
        begin(null);
    }

    @Override
    public void testStarted(String host) {
        begin(host);
    }

    private void begin(String host) {
        ArrivalState.clear();
        REPORTED.clear();
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
}
