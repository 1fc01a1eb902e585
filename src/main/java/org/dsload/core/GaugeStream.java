package org.dsload.core;

import org.apache.jmeter.samplers.RemoteListenerWrapper;
import org.apache.jmeter.samplers.RemoteSampleListenerWrapper;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a slave's server gauges reach the master while the test runs: the only channel JMeter keeps
 * open from a slave to its master during a test is the sample stream, so each second's gauge lines
 * of a file go to the master as one sample labelled {@value GaugeTable#STREAM_PREFIX}{@code <file>},
 * the lines in its request text (which JMeter's stripping sample senders keep), for the master's
 * live figures alone: the results writer, its summariser and the reports leave such samples out.
 *
 * <p>On only on a slave (the master, or the one engine of a local run, reads the gauge files of its
 * own run folder) whose run serves metrics ({@value RunProperties#METRICS_PORT}), in either recording
 * mode: {@link #slavesSend}. The listeners are those of
 * the first dsload sampler thread that samples, kept for the test, and of those only the ones that
 * send to the master: a listener of the plan that runs on the slave itself never sees them.
 */
public final class GaugeStream implements EngineService {
    private static final Logger log = LoggerFactory.getLogger(GaugeStream.class);
    /** A slave of a run that serves metrics: its gauges go to the master. */
    private static volatile boolean on;
    /** The master-bound listeners of a sampler thread. */
    private static volatile ThreadListeners listeners;

    /** Started and ended with the test by core ({@code META-INF/services/org.dsload.core.EngineService}). */
    public GaugeStream() {
    }

    @Override
    public void started(String engine, String remoteHost) {
        listeners = null;
        on = remoteHost != null && slavesSend();
        if (on) {
            log.info("dsload: this slave sends its server gauges to the master's metrics endpoint while the test runs");
        }
    }

    /**
     * Whether the slaves of this run send their gauges to the master: when it serves metrics. The
     * master then reads no slave's gauge files: one way per server.
     */
    public static boolean slavesSend() {
        return JMeterUtils.getJMeterProperties() != null && metricsPort() > 0;
    }

    @Override
    public void ended(boolean last) {
        if (last) {
            on = false;
            listeners = null;
        }
    }

    private static int metricsPort() {
        String value = JMeterUtils.getProperty(RunProperties.METRICS_PORT);
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether lines handed to {@link #send} travel: build them only then. */
    public static boolean on() {
        return on;
    }

    /** On a sampler thread ({@link ClientSampler}): keeps its master-bound listeners, once per test. */
    static void keepListeners() {
        if (!on || listeners != null) {
            return;
        }
        ThreadListeners all = ThreadListeners.ofThisThread();
        if (all != null) {
            listeners = all.only(GaugeStream::toMaster);
        }
    }

    /** Whether a listener on this engine stands for one of the master's (what JMeter put in place of a remote listener). */
    static boolean toMaster(SampleListener l) {
        return l instanceof RemoteListenerWrapper || l instanceof RemoteSampleListenerWrapper;
    }

    /**
     * Sends the lines of a gauge file that one reading added (its header first) to the master.
     * Nothing is sent before a dsload sampler of the engine has sampled once, nor when {@link #on} is false.
     */
    public static void send(String file, String header, CharSequence lines) {
        ThreadListeners to = listeners;
        if (!on() || to == null || lines.length() == 0) {
            return;
        }
        to.deliver(sample(file, header, lines));
    }

    /** The sample that carries a file's lines. */
    static SampleResult sample(String file, String header, CharSequence lines) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(GaugeTable.STREAM_PREFIX + file);
        r.setSamplerData(header + "\n" + lines);
        r.setStampAndTime(System.currentTimeMillis(), 0);
        r.setSuccessful(true);
        r.setResponseCode("GAUGES");
        return r;
    }
}
