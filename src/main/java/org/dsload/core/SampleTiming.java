package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.report.JtlColumns;
import org.dsload.report.TimingValue;

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

    /** Call right before the driver call. */
    public void start(SampleResult result) {
        result.sampleStart();
        startNanos = System.nanoTime();
    }

    /** Call right after the driver call returned or threw. */
    public long end(SampleResult result) {
        long micros = (System.nanoTime() - startNanos) / 1000;
        result.latencyEnd();
        result.sampleEnd();
        JMeterVariables variables = JMeterContextService.getContext().getVariables();
        if (variables != null) {
            IntendedStart.Stamp stamp = IntendedStart.take();
            if (stamp == null) {
                variables.put(VARIABLE, TimingValue.format(result.getStartTime(), micros));
            } else {
                long delay = stamp.delayMicros(startNanos);
                IntendedStart.record(delay);
                variables.put(VARIABLE, TimingValue.format(result.getStartTime(), micros, delay, stamp.dropped()));
            }
        }
        return micros;
    }
}
