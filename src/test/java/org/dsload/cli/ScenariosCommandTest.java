package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.dsload.scenarios.MainJob;
import org.junit.jupiter.api.Test;

/** The main job's exit code: a miss is a finding, a failure fails it, and --strict makes a miss fail it too. */
class ScenariosCommandTest {

    @Test
    void aMissedScenarioEndsTheJobWith0UnlessStrict() {
        MainJob.Tally missedOne = new MainJob.Tally(0, 1);
        assertEquals(ExitCodes.OK, ScenariosCommand.exitCode(missedOne, false));
        assertEquals(ExitCodes.FAILED, ScenariosCommand.exitCode(missedOne, true));
    }

    @Test
    void aFailedScenarioFailsTheJobEitherWay() {
        assertEquals(ExitCodes.FAILED, ScenariosCommand.exitCode(new MainJob.Tally(1, 0), false));
        assertEquals(ExitCodes.FAILED, ScenariosCommand.exitCode(new MainJob.Tally(1, 0), true));
        assertEquals(ExitCodes.OK, ScenariosCommand.exitCode(new MainJob.Tally(0, 0), true));
    }

    @Test
    void anEmptySlavesValueLeavesEachScenarioItsOwnAndANumberIsKept() {
        ScenariosCommand.SlavesOrDefault convert = new ScenariosCommand.SlavesOrDefault();
        assertNull(convert.convert(""), "./mvnw verify -Pscenarios passes --slaves=");
        assertEquals(0, convert.convert("0"));
        assertEquals(3, convert.convert("3"));
    }
}
