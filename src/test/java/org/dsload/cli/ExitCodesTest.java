package org.dsload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dsload.run.Ending;
import org.junit.jupiter.api.Test;

/** How a run ended, as the exit code scripts branch on: published codes keep their meaning. */
class ExitCodesTest {

    @Test
    void everyEndingHasItsOwnCode() {
        assertEquals(0, ExitCodes.of(Ending.OK, 0));
        assertEquals(1, ExitCodes.of(Ending.FAILED, 0));
        assertEquals(7, ExitCodes.of(Ending.REFUSED, 0), "refused at its start");
        assertEquals(4, ExitCodes.of(Ending.NO_SUCCESS, 0));
        assertEquals(5, ExitCodes.of(Ending.STORE_FAILED, 0), "the store failed during the run");
        assertEquals(6, ExitCodes.of(Ending.LOAD_INCOMPLETE, 0), "not the planned load: arrivals unsent, a slave lost");
        assertEquals(3, ExitCodes.of(Ending.LIMITS_BROKEN, 0), "a stop condition was broken");
        assertEquals(130, ExitCodes.of(Ending.INTERRUPTED, 0));
        assertEquals(143, ExitCodes.of(Ending.INTERRUPTED, 143));
    }
}
