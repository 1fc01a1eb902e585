package org.dsload.core;

import org.apache.jmeter.threads.JMeterContextService;

/**
 * Says yes once per test (told apart by the test's start time): for a line or a record that many
 * threads may meet the cause of at the same moment, and that must appear once.
 */
public final class OncePerTest {
    /** The start time of the test that was answered yes. */
    private long answeredFor = Long.MIN_VALUE;

    /** @return true the first time it is asked during the current test, false after */
    public synchronized boolean first() {
        long test = JMeterContextService.getTestStartTime();
        if (test == answeredFor) {
            return false;
        }
        answeredFor = test;
        return true;
    }
}
