package org.dsload.chaos;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.Interruptible;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.dsload.core.ConfigException;
import org.dsload.core.Results;

/**
 * dsload Fault Schedule: a sampler that applies and reverts faults at their times, alone in a
 * thread group of one thread that runs beside the load. Each apply and each revert is a sample
 * labelled {@code fault:<kind>:<target>} (codes APPLIED, REVERTED, APPLY_FAILED, REVERT_FAILED),
 * so the results file lines the faults up with the load for every report.
 *
 * <p>A fault in force is always reverted: at its time; when the test is stopped (the sampler is
 * interrupted, or the load's threads have all ended); when the thread ends; at test end; at JVM
 * exit (a shutdown hook); and after a crash by {@code dsload revert}, which reads the record kept
 * of every fault until its revert.
 *
 * <p>In a distributed run every jmeter-server runs the plan; only the engine named by the
 * Injecting engine field (by default the property {@code dsload.faults.engine}, which
 * {@code dsload run} sets to its first slave) runs the schedule, the others' schedule threads end
 * at once without a sample.
 */
@TestElementMetadata(labelResource = "displayName")
public class FaultSchedule extends AbstractSampler implements TestBean, TestStateListener, ThreadListener, Interruptible {
    private static final long serialVersionUID = 1L;

    private String faults = "";
    private String targets = "";
    private String proxyControl = "";
    private String networkDriver = "proxy";
    private String processDriver = "process";
    private String commandPrefix = "";
    private String commandTemplates = "";
    private String engine = "";
    private String endWithLoad = "true";
    private String endTestAfter = "";
    private String readyTimeout = "240";
    private String commandTimeout = "60";

    private transient ScheduleRun run;

    @Override
    public void testStarted() {
        start(null);
    }

    @Override
    public void testStarted(String host) {
        start(host);
    }

    private void start(String host) {
        FaultTriggers.reset();
        run = ScheduleRun.prepare(this, host);
    }

    @Override
    public SampleResult sample(Entry e) {
        ScheduleRun r = run;
        if (r == null || !r.designated()) {
            stopThread();
            return null;
        }
        if (r.refusal() != null) {
            return Results.refused(getName(), "fault schedule", new ConfigException(r.refusal()));
        }
        SampleResult result = r.next();
        if (result == null || r.finished()) {
            stopThread();
        }
        return result;
    }

    private static void stopThread() {
        JMeterThread thread = JMeterContextService.getContext().getThread();
        if (thread != null) {
            thread.stop();
        }
    }

    @Override
    public boolean interrupt() {
        ScheduleRun r = run;
        if (r != null) {
            r.interrupt();
        }
        return true;
    }

    @Override
    public void threadStarted() {
        // the schedule's clock starts with its first sample
    }

    @Override
    public void threadFinished() {
        ScheduleRun r = run;
        if (r != null && r.designated()) {
            r.revertInThread();
        }
    }

    @Override
    public void testEnded() {
        ScheduleRun r = run;
        if (r != null) {
            r.testEnded();
        }
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    /** Thread clones share the original's run, which test start prepared. */
    @Override
    public Object clone() {
        FaultSchedule copy = (FaultSchedule) super.clone();
        copy.run = run;
        return copy;
    }

    public String getFaults() {
        return faults;
    }

    public void setFaults(String faults) {
        this.faults = faults;
    }

    public String getTargets() {
        return targets;
    }

    public void setTargets(String targets) {
        this.targets = targets;
    }

    public String getProxyControl() {
        return proxyControl;
    }

    public void setProxyControl(String proxyControl) {
        this.proxyControl = proxyControl;
    }

    public String getNetworkDriver() {
        return networkDriver;
    }

    public void setNetworkDriver(String networkDriver) {
        this.networkDriver = networkDriver;
    }

    public String getProcessDriver() {
        return processDriver;
    }

    public void setProcessDriver(String processDriver) {
        this.processDriver = processDriver;
    }

    public String getCommandPrefix() {
        return commandPrefix;
    }

    public void setCommandPrefix(String commandPrefix) {
        this.commandPrefix = commandPrefix;
    }

    public String getCommandTemplates() {
        return commandTemplates;
    }

    public void setCommandTemplates(String commandTemplates) {
        this.commandTemplates = commandTemplates;
    }

    public String getEngine() {
        return engine;
    }

    public void setEngine(String engine) {
        this.engine = engine;
    }

    public String getEndWithLoad() {
        return endWithLoad;
    }

    public void setEndWithLoad(String endWithLoad) {
        this.endWithLoad = endWithLoad;
    }

    public String getEndTestAfter() {
        return endTestAfter;
    }

    public void setEndTestAfter(String endTestAfter) {
        this.endTestAfter = endTestAfter;
    }

    public String getReadyTimeout() {
        return readyTimeout;
    }

    public void setReadyTimeout(String readyTimeout) {
        this.readyTimeout = readyTimeout;
    }

    public String getCommandTimeout() {
        return commandTimeout;
    }

    public void setCommandTimeout(String commandTimeout) {
        this.commandTimeout = commandTimeout;
    }
}
