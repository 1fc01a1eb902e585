package org.dsload.process;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.jmeter.samplers.SampleResult;

/**
 * A JVM's main that calls one dsload method and one of JMeter's 3,000 times, a few each millisecond,
 * as the per-row path of a run with requests in flight is called: fewer calls than C2's own
 * thresholds ask for, ten times those scaled by 0.1. It then leaves the compilers a moment to finish.
 */
public final class RowsAMillisecond {
    static final int CALLS = 3000;
    private static final SampleResult SAMPLE = new SampleResult();
    private static long sum;

    private RowsAMillisecond() {
    }

    public static void main(String[] args) {
        for (int i = 0; i < CALLS; i++) {
            sum += row(i);
            // JMeter's: what a sampler sets on each sample's result
            SAMPLE.setResponseData(i % 2 == 0 ? "OK" : "nil", "UTF-8");
            sum += SAMPLE.getResponseData().length;
            if (i % 10 == 9) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(700));
        System.out.println("sum " + sum);
    }

    static long row(int i) {
        return Integer.toString(i).hashCode() * 31L + i;
    }
}
