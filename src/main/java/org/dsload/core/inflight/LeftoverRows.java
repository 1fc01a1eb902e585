package org.dsload.core.inflight;

import java.util.List;
import java.util.function.Consumer;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.ListenerNotifier;
import org.apache.jmeter.threads.SamplePackage;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.GiveUp;
import org.dsload.core.LiveFigures;
import org.dsload.core.RequestsResult;

/**
 * Delivers the rows a sampler still holds when its thread stops sampling (its last sample() has
 * returned, so JMeter will not ask for them): the requests cancelled then, and replies of other
 * kinds than the last row's. They go to the sample listeners JMeter gives the sampler's results
 * to (results file, summariser, listeners, a master's), found in the package JMeter keeps in the
 * thread's variables during each sample; so no request is lost from the results. Assertions and
 * post-processors do not see these rows.
 *
 * <p>One instance per sampler clone; {@link #remember} in every sample, {@link #deliver} after.
 */
public final class LeftoverRows {
    private static final ListenerNotifier NOTIFIER = new ListenerNotifier();

    private List<SampleListener> listeners = List.of();
    private JMeterVariables variables;
    private AbstractThreadGroup threadGroup;
    private String threadName = "";

    /** Notes where this sampler's results go; cheap, call in every sample. */
    public void remember() {
        JMeterContext context = JMeterContextService.getContext();
        JMeterVariables vars = context.getVariables();
        if (vars == null) {
            return;
        }
        variables = vars;
        if (vars.getObject(JMeterThread.PACKAGE_OBJECT) instanceof SamplePackage pack) {
            listeners = pack.getSampleListeners();
        }
        if (context.getThreadGroup() != null) {
            threadGroup = context.getThreadGroup();
        }
        if (context.getThread() != null) {
            threadName = context.getThread().getThreadName();
        }
    }

    /** Hands each row to the listeners, as JMeter would have after a sample. */
    public void deliver(String label, List<List<Completion>> rows) {
        deliver(label, rows, result -> {
        });
    }

    /** As {@link #deliver(String, List)}, each row finished by the sampler first (such as its URL). */
    public void deliver(String label, List<List<Completion>> rows, Consumer<RequestsResult> finish) {
        for (List<Completion> row : rows) {
            RequestsResult result = BatchResult.of(label, row, variables);
            finish.accept(result);
            deliver(result);
        }
    }

    /**
     * Hands a row made during a sample to the listeners, before the sample's own result; it counts
     * for {@link GiveUp} as a sample would.
     */
    public void deliver(RequestsResult result) {
        GiveUp.check(result);
        LiveFigures.note(result);
        result.setThreadName(threadName);
        result.setGroupThreads(threadGroup == null ? 0 : threadGroup.getNumberOfThreads());
        result.setAllThreads(JMeterContextService.getNumberOfThreads());
        if (!listeners.isEmpty() && !result.isIgnore()) { // ignored: recorded request by request
            String group = threadGroup == null ? "" : threadGroup.getName();
            NOTIFIER.notifyListeners(new SampleEvent(result, group, variables), listeners);
        }
    }
}
