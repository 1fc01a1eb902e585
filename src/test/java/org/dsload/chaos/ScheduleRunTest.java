package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.SamplePackage;
import org.dsload.testing.JMeterRuntime;
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
        List<SampleResult> heard = new CopyOnWriteArrayList<>();
        SampleListener listener = new SampleListener() {
            @Override
            public void sampleOccurred(SampleEvent e) {
                heard.add(e.getResult());
            }

            @Override
            public void sampleStarted(SampleEvent e) {
                // counted when it ends
            }

            @Override
            public void sampleStopped(SampleEvent e) {
                // counted when it ends
            }
        };
        JMeterVariables variables = JMeterRuntime.freshVariables();
        variables.putObject(JMeterThread.PACKAGE_OBJECT,
                new SamplePackage(List.of(), List.of(listener), List.of(), List.of(), List.of(), List.of(), List.of()));
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
