package org.dsload.core;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;

/**
 * A dsload sampler: it finds its client (connection, session, workload) by the variable name a
 * config element published, so no config element's fields are ever merged into its own. Each
 * sample goes to the engine's recording once complete ({@link SampleRecording}): a row as JMeter writes
 * it, or in histograms mode into the interval logs, the row then marked ignored. A failure that
 * stops a setUp thread group marks the run failed ({@link SetUpFailure}); a run in which nothing
 * succeeds for too long is stopped ({@link GiveUp}).
 */
public abstract class ClientSampler extends AbstractSampler implements TestBean {
    private static final long serialVersionUID = 1L;

    @Override
    public final SampleResult sample(Entry entry) {
        SampleResult result = doSample(entry);
        if (result != null) {
            StoreLabels.sampled(result);
            sampled(result);
            SetUpFailure.check(result);
            GiveUp.check(result);
            LiveFigures.note(result);
            GaugeStream.keepListeners();
        }
        SampleRecording.completed(result);
        return result;
    }

    /** One sample: time the driver call with {@link SampleTiming} and fill the result; never throws. */
    protected abstract SampleResult doSample(Entry entry);

    /** What the sampler notes of the sample it just took, before it is recorded; nothing by default. */
    protected void sampled(SampleResult result) {
    }

    @Override
    public boolean applies(ConfigTestElement configElement) {
        return false;
    }
}
