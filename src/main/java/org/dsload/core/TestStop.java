package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sample that stops the test, with one line on the console saying why. JMeter lets the samples
 * under way finish and starts no new ones; a stop during the setUp thread groups keeps the main
 * thread groups from starting. Many threads may meet the same cause at once: the console gets the
 * first one's line only, once per test. What waits on the thread's own (a back-off) asks
 * {@link #stopping} so as not to hold the thread while the test ends.
 */
public final class TestStop {
    private static final Logger log = LoggerFactory.getLogger(TestStop.class);
    private static final OncePerTest PRINTED = new OncePerTest();
    /** The start time of the test a sample stopped; tests are told apart by it. */
    private static volatile long stoppedTest = Long.MIN_VALUE;

    private TestStop() {
    }

    /** Marks the sample to stop the test and prints {@code line} (logged too) if it is this test's first. */
    public static void stop(SampleResult result, String line) {
        result.setStopTest(true);
        stoppedTest = JMeterContextService.getTestStartTime();
        if (PRINTED.first()) {
            log.error(line);
            System.err.println(line); // NOSONAR the console is where a headless user looks
        }
    }

    /**
     * Notes that dsload stops the running test by other means than a sample (a stop condition, a
     * capacity bound), so that elements that hold threads let them go ({@link #stopping}).
     */
    public static void markStopping(String why) {
        stoppedTest = JMeterContextService.getTestStartTime();
        log.info("dsload: the test stops: {}", why);
    }

    /** Whether a sample of the running test has stopped it (JMeter ends its threads after their samples under way). */
    public static boolean stopping() {
        long test = JMeterContextService.getTestStartTime();
        return test != 0 && test == stoppedTest;
    }
}
