package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.testing.HeardSamples;
import org.junit.jupiter.api.Test;

/**
 * A fault still in force when the test ends (its schedule's thread stopped without reverting it) is
 * reverted at test end, and that revert reaches the listeners of the schedule's thread as a sample
 * (the results file, the master's live figures), as the reverts of the schedule's own thread do.
 * The command driver with templates that change nothing stands for a real fault.
 */
class ScheduleRunTest {

    @Test
    void aFaultInForceAtTestEndIsRevertedWithASampleToTheSchedulesListeners() {
        HeardSamples listener = new HeardSamples();
        HeardSamples.samplerThreadWith(listener);
        List<SampleResult> heard = listener.results();
        FaultSchedule schedule = new FaultSchedule();
        schedule.setName("faults");
        schedule.setTargets("n1: host=127.0.0.1 port=6379");
        schedule.setFaults("pause n1 driver=command at 0s for 10m");
        schedule.setCommandTemplates("pause.apply = true\npause.revert = true");
        schedule.testStarted();
        try {
            SampleResult applied = schedule.sample(null);
            assertEquals(ScheduleRun.APPLIED, applied.getResponseCode(), applied.getResponseMessage());
            assertTrue(heard.isEmpty(), "JMeter hands the sample the schedule returns to the listeners itself");
        } finally {
            schedule.testEnded();
        }
        assertEquals(1, heard.size(), heard.toString());
        SampleResult revert = heard.get(0);
        assertEquals("fault:pause:n1", revert.getSampleLabel());
        assertEquals(ScheduleRun.REVERTED, revert.getResponseCode(), revert.getResponseMessage());
        assertTrue(revert.getResponseMessage().contains("the test ended"), revert.getResponseMessage());
    }
}
