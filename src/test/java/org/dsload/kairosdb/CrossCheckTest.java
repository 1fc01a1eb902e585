package org.dsload.kairosdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.dsload.kairosdb.report.CapacityRecord.Check;
import org.junit.jupiter.api.Test;

class CrossCheckTest {
    @Test
    void aCountAgreesWithThePointsReportedAndAnyOfThoseWhoseWritesGotNoAnswer() {
        assertEquals(Check.MATCH, CrossCheck.agreed(100, 0, 100, 0).check());
        assertEquals(Check.MATCH, CrossCheck.agreed(100, 40, 100, 0).check());
        CrossCheck.Result within = CrossCheck.agreed(100, 40, 130, 0);
        assertEquals(Check.WITHIN, within.check());
        assertEquals("30 of the 40 points whose writes got no answer were stored as well", within.note());
        assertEquals(Check.WITHIN, CrossCheck.agreed(100, 40, 140, 0).check());
        assertNull(CrossCheck.agreed(100, 40, 141, 0), "more than every write sent could have stored");
        assertNull(CrossCheck.agreed(100, 40, 99, 0), "fewer than the writes acknowledged");
        assertNull(CrossCheck.agreed(100, 0, 101, 0));
    }

    @Test
    void theCountCoversTheTimesOfTheWritesThatGotNoAnswerToo() throws Exception {
        WriteLedger ledger = new WriteLedger();
        ledger.series("m", Map.of("host", "h1"));
        ledger.written("w", 10, 5_000, 6_000);
        ledger.unanswered(10, 7_000, 8_000);
        ledger.unanswered(10, 4_000, 4_500);
        assertEquals(10, ledger.points(), "the points reported written are those acknowledged");
        assertEquals(20, ledger.unansweredPoints());
        JsonNode query = new ObjectMapper().readTree(CrossCheck.queries(ledger).get(0));
        assertEquals(4_000, query.get("start_absolute").asLong());
        assertEquals(8_000, query.get("end_absolute").asLong());
    }

    @Test
    void aCountQueryWaitsTenSecondsWithinTheWaitAndNeverLessThanTheResponseTimeout() {
        assertEquals(10_000, CrossCheck.countTimeoutMillis(1_000, 30_000));
        assertEquals(2_000, CrossCheck.countTimeoutMillis(1_000, 2_000), "a short wait stays short");
        assertEquals(1_000, CrossCheck.countTimeoutMillis(1_000, -5), "the wait is over: the response timeout");
        assertEquals(60_000, CrossCheck.countTimeoutMillis(60_000, 30_000), "a longer response timeout stands");
    }
}
