package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** When JMeter has said its test is over, so that the runner need not wait for its JVM to idle out. */
class JMeterProcessTest {
    private static final String TIDYING = "Tidying up remote @ 2026 Nov 29 23:33:32 UTC (1795995212571)";

    @Test
    void theLastLineOfATestSaysItIsDoneInEveryRun() {
        assertTrue(JMeterProcess.saysDone("... end of run", false));
        assertTrue(JMeterProcess.saysDone("... end of run", true));
        assertFalse(JMeterProcess.saysDone("Tidying up ...    @ 2026 Nov 29 23:27:09 UTC (1795994829611)", true),
                "a run on this machine still notifies its listeners after this line");
        assertFalse(JMeterProcess.saysDone("summary =     50 in 00:00:01", true));
    }

    @Test
    void theMastersTidyingUpSaysItIsDoneOnlyWhenNothingFollowsItsSleep() {
        List<String> plain = List.of("java", "-jar", "ApacheJMeter.jar", "-n", "-t", "plan.jmx", "-R", "127.0.0.2:1099");
        assertTrue(JMeterProcess.doneAtTidyUp(plain));
        assertTrue(JMeterProcess.saysDone(TIDYING, JMeterProcess.doneAtTidyUp(plain)));
        for (String after : List.of("-e", "--reportatendofloadtests", "-X", "--remoteexit")) {
            List<String> command = new ArrayList<>(plain);
            command.add(after);
            assertFalse(JMeterProcess.doneAtTidyUp(command), after + ": JMeter has work after its sleep");
            assertFalse(JMeterProcess.saysDone(TIDYING, JMeterProcess.doneAtTidyUp(command)), after);
        }
    }
}
