package org.dsload.core;

import java.util.List;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample listeners JMeter gives a sampler thread, kept to hand them samples from elsewhere:
 * another thread, or after that thread has ended (JMeter ends the listeners of the test plan, and
 * on a slave its senders to the master, after the elements of the thread groups).
 *
 * @param listeners the listeners, in JMeter's order
 * @param group     the thread group's name, which the sample events carry
 * @param thread    the thread's name, which the samples carry
 */
public record ThreadListeners(List<SampleListener> listeners, String group, String thread) {
    private static final Logger log = LoggerFactory.getLogger(ThreadListeners.class);

    public ThreadListeners {
        listeners = List.copyOf(listeners);
    }

    /** The listeners of the sampler the calling thread runs, or null outside a sampler thread. */
    public static ThreadListeners ofThisThread() {
        JMeterContext ctx = JMeterContextService.getContext();
        Object pack = ctx.getVariables() == null ? null : ctx.getVariables().getObject(JMeterThread.PACKAGE_OBJECT);
        if (!(pack instanceof SamplePackage samplePackage)) {
            return null;
        }
        return new ThreadListeners(samplePackage.getSampleListeners(),
                ctx.getThreadGroup() == null ? "" : ctx.getThreadGroup().getName(),
                ctx.getThread() == null ? Thread.currentThread().getName() : ctx.getThread().getThreadName());
    }

    /** Those of the listeners that pass {@code filter}. */
    public ThreadListeners only(java.util.function.Predicate<SampleListener> filter) {
        return new ThreadListeners(listeners.stream().filter(filter).toList(), group, thread);
    }

    /** Hands a sample to every listener, as the thread's; one that throws does not keep it from the others. */
    public void deliver(SampleResult result) {
        result.setThreadName(thread);
        SampleEvent event = new SampleEvent(result, group, new JMeterVariables());
        for (SampleListener l : listeners) {
            try {
                l.sampleOccurred(event);
            } catch (RuntimeException e) {
                log.warn("dsload: {} did not reach the listener {}: {}", result.getSampleLabel(), l.getClass().getName(),
                        e.toString());
            }
        }
    }
}
