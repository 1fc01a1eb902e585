package org.dsload.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The stop conditions as a user writes them, and how seconds of figures break them. */
class StopConditionsTest {

    /** A second of {@code requests}, {@code failed} of them failed, every latency {@code micros}. */
    private record Fixed(long requests, long failed, long micros) implements StopConditions.Second {
        @Override
        public long percentileMicros(double percentile) {
            return micros;
        }
    }

    @Test
    void parsesEveryForm() {
        List<StopConditions.Condition> c = StopConditions.parse(
                "p99>50ms for 10s; errors>5%;rate<100/s; p99.9 > 1.5s;P50>500us;rate<10").conditions();
        assertEquals(6, c.size());
        assertEquals(new StopConditions.Condition(StopConditions.Kind.LATENCY, 99, 50_000, 10, "p99>50ms for 10s"), c.get(0));
        assertEquals(new StopConditions.Condition(StopConditions.Kind.ERRORS, 0, 0.05, 1, "errors>5%"), c.get(1));
        assertEquals(StopConditions.Kind.RATE, c.get(2).kind());
        assertEquals(100, c.get(2).threshold());
        assertEquals(99.9, c.get(3).percentile());
        assertEquals(1_500_000, c.get(3).threshold());
        assertEquals(500, c.get(4).threshold());
        assertEquals(StopConditions.DEFAULT_FOR_SECONDS, c.get(5).forSeconds());
        assertTrue(StopConditions.parse(" ; ").isEmpty());
        assertTrue(StopConditions.parse(null).isEmpty());
    }

    @Test
    void refusesWhatItCannotJudgeSayingWhatItTakes() {
        for (String bad : new String[] {"p99>50", "p99<50ms", "p0>1ms", "p101>1ms", "errors>5", "errors<5%", "errors>150%",
            "rate>100/s", "rate<100ms", "latency>5ms", "p99>50ms for 0s", "p99>50ms for 10", "p99>50ms; oops"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StopConditions.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("'"), e.getMessage());
        }
        String message = assertThrows(IllegalArgumentException.class, () -> StopConditions.parse("latency>5ms")).getMessage();
        assertTrue(message.contains("p99>50ms") && message.contains("errors>5%") && message.contains("for Ns"), message);
    }

    @Test
    void aConditionBreaksAfterItsSecondsInARowAndStartsAgainWhenKept() {
        StopConditions.Judge judge = StopConditions.parse("p99>50ms for 3s").judge();
        Fixed slow = new Fixed(100, 0, 60_000);
        Fixed fast = new Fixed(100, 0, 1_000);
        assertNull(judge.second(1, slow));
        assertNull(judge.second(2, slow));
        assertNull(judge.second(3, fast), "kept: the count starts again");
        assertNull(judge.second(4, slow));
        assertNull(judge.second(5, slow));
        StopConditions.Breach breach = judge.second(6, slow);
        assertNotNull(breach);
        assertEquals(4, breach.sinceEpochSecond());
        assertEquals(6, breach.epochSecond());
        assertEquals("'p99>50ms for 3s' broken for 3 s in a row: p99 60ms", breach.text());
    }

    @Test
    void errorsAreAShareOfTheSecondsRequestsAndAnEmptySecondKeepsThem() {
        StopConditions.Judge judge = StopConditions.parse("errors>5%").judge();
        assertNull(judge.second(1, new Fixed(100, 5, 10)), "5 % is not above 5 %");
        assertNull(judge.second(2, new Fixed(0, 0, 0)), "nothing to judge");
        StopConditions.Breach breach = judge.second(3, new Fixed(100, 6, 10));
        assertEquals("'errors>5%' broken: errors 6% (6 of 100)", breach.text());
    }

    @Test
    void aRateIsJudgedFromTheFirstRequestOnAndAnEmptySecondThenBreaksIt() {
        StopConditions.Judge judge = StopConditions.parse("p99>1s;rate<100/s for 2s").judge();
        assertNull(judge.second(1, new Fixed(0, 0, 0)), "a setUp or warm-up: no request yet");
        assertNull(judge.second(2, new Fixed(0, 0, 0)));
        assertNull(judge.second(3, new Fixed(150, 0, 10)));
        assertNull(judge.second(4, new Fixed(0, 0, 0)));
        StopConditions.Breach breach = judge.second(5, new Fixed(99, 0, 10));
        assertEquals("rate<100/s for 2s", breach.condition().text());
        assertEquals("rate 99/s", breach.measured());
    }
}
