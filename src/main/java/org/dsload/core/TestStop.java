package org.dsload.core;

import org.apache.jmeter.samplers.SampleResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sample that stops the test, with one line on the console saying why. JMeter lets the samples
 * under way finish and starts no new ones; a stop during the setUp thread groups keeps the main
 * thread groups from starting. Many threads may meet the same cause at once: the console gets the
 * first one's line only, once per test.
 */
public final class TestStop {
    private static final Logger log = LoggerFactory.getLogger(TestStop.class);
    private static final OncePerTest PRINTED = new OncePerTest();

    private TestStop() {
    }

    /** Marks the sample to stop the test and prints {@code line} (logged too) if it is this test's first. */
    public static void stop(SampleResult result, String line) {
        result.setStopTest(true);
        if (PRINTED.first()) {
            log.error(line);
            System.err.println(line); // NOSONAR the console is where a headless user looks
        }
    }
}
