package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GiveUpTest {

    @BeforeEach
    void started() throws InterruptedException {
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.GIVE_UP_AFTER, "4");
        Thread.sleep(2); // a test start of its own, in JMeter's milliseconds
        JMeterContextService.startTest();
    }

    @AfterEach
    void ended() {
        JMeterContextService.endTest();
        JMeterUtils.getJMeterProperties().remove(RunProperties.GIVE_UP_AFTER);
    }

    /** A failed row of requests in flight: JMeter's end is its start plus the time of all its requests together. */
    private static SampleResult failedRow(long startMillis, long elapsedMillis) {
        SampleResult r = new SampleResult();
        r.setSampleLabel("POST /write");
        r.setStampAndTime(startMillis, elapsedMillis);
        r.setSuccessful(false);
        r.setResponseCode("Non HTTP response code: java.net.ConnectException");
        r.setResponseMessage("connection refused");
        return r;
    }

    @Test
    void rowsWhoseRequestsAddUpToMoreThanTheLimitDoNotEndTheTestBeforeTheLimitHasPassed() {
        long now = System.currentTimeMillis();
        // 16 failed requests of 250 ms each, sent together a moment ago: the row "ends" 4 s from now
        assertFalse(GiveUp.check(failedRow(now - 100, 4000)));
        assertFalse(GiveUp.check(failedRow(now - 50, 4000)), "0.1 s of failures is not 4 s without a success");
        assertFalse(TestStop.stopping());
    }

    @Test
    void failuresForTheWholeLimitEndTheTest() {
        long now = System.currentTimeMillis();
        assertFalse(GiveUp.check(failedRow(now - 5000, 250)));
        assertTrue(GiveUp.check(failedRow(now - 100, 250)), "5 s of failures, the limit 4 s");
    }

    @Test
    void aSuccessStartsTheTimeAgain() {
        long now = System.currentTimeMillis();
        assertFalse(GiveUp.check(failedRow(now - 5000, 250)));
        SampleResult ok = new SampleResult();
        ok.setStampAndTime(now - 200, 1);
        ok.setSuccessful(true);
        assertFalse(GiveUp.check(ok));
        assertFalse(GiveUp.check(failedRow(now - 100, 250)));
        assertFalse(GiveUp.check(failedRow(now - 50, 250)), "the failures began after the success");
    }
}
