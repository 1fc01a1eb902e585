package org.dsload.core;

import java.util.List;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.format.BatchTiming;
import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.TimingValue;

/**
 * Times the driver call of a sample in microseconds, beside JMeter's whole-millisecond elapsed
 * time (a Redis GET on loopback takes a fraction of a millisecond, which JMeter rounds to 0).
 *
 * <p>The figure reaches the results file through the JMeter variable {@value #VARIABLE},
 * saved as a JTL column when {@code sample_variables=dsload_timing} is set (the dsload runner
 * sets it on every engine; JMeter ships sample variables from slaves to the master). Its value
 * is {@code <start ms>:<elapsed µs>}: the start time lets a report tell a value set by this
 * sample from one left over by an earlier dsload sample in the same thread. Under an arrival
 * schedule ({@link IntendedStart}) the value also carries the delay from the intended start
 * (see {@link TimingValue}).
 */
public final class SampleTiming {
    public static final String VARIABLE = JtlColumns.TIMING;

    private long startNanos;

    /**
     * For a sample whose time was measured elsewhere than around a call in this thread (a ZooKeeper
     * watch notification): its start and microseconds, as {@link #end} leaves them.
     */
    public static void measured(SampleResult result, long startMillis, long micros) {
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            variables.put(VARIABLE, TimingValue.format(startMillis, micros));
            SampleRecording.timed(result, micros, TimingValue.NONE, 0, false);
        }
    }

    /** Call right before the driver call. */
    public void start(SampleResult result) {
        result.sampleStart();
        startNanos = System.nanoTime();
    }

    /** Call right after the driver call returned or threw. */
    public long end(SampleResult result) {
        return end(result, 1);
    }

    /**
     * As {@link #end(SampleResult)} for one request that counts as {@code count} (a KairosDB batch
     * counts its points): its timing is written as a batch of that one request, so that the
     * summary knows it was one request (its Error Set counts requests).
     */
    public long end(SampleResult result, int count) {
        long micros = (System.nanoTime() - startNanos) / 1000;
        result.latencyEnd();
        result.sampleEnd();
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            IntendedStart.Stamp stamp = IntendedStart.take();
            long delay = TimingValue.NONE;
            long dropped = 0;
            if (stamp != null) {
                delay = stamp.delayMicros(startNanos);
                dropped = stamp.dropped();
                IntendedStart.record(delay);
                stamp.label(result);
            }
            String value;
            if (count > 1) {
                value = BatchTiming.format(result.getStartTime(), List.of(new BatchTiming.Entry(0, micros, delay, dropped,
                        count)));
            } else {
                value = stamp == null ? TimingValue.format(result.getStartTime(), micros)
                        : TimingValue.format(result.getStartTime(), micros, delay, dropped);
            }
            variables.put(VARIABLE, value);
            SampleRecording.timed(result, micros, delay, dropped, count > 1);
        }
        return micros;
    }

    /**
     * The {@value #VARIABLE} value of a sample as a listener gets it: saved as a sample variable
     * (always so in events from slaves) it came with the event; a local run delivers the event on
     * the sampling thread, whose variables hold it. Empty when there is none.
     */
    public static String of(SampleEvent event) {
        for (int i = 0; i < SampleEvent.getVarCount(); i++) {
            if (VARIABLE.equals(SampleEvent.getVarName(i))) {
                String value = event.getVarValue(i);
                return value == null ? "" : value;
            }
        }
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        String value = variables == null ? null : variables.get(VARIABLE);
        return value == null ? "" : value;
    }
}
