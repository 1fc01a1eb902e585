package org.dsload.arrivals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.junit.jupiter.api.Test;

class RatesTest {
    private static final Fields FIELDS = new Fields(ConstantArrivalRate.class, "target");

    @Test
    void aRateIsAPositiveNumberPerSecond() {
        assertEquals(0.5, Rates.perSecond(FIELDS, "rate", " 0.5 "));
        assertEquals(5000, Rates.perSecond(FIELDS, "rate", "5000"));
        String zero = assertThrows(ConfigException.class, () -> Rates.perSecond(FIELDS, "rate", "0")).getMessage();
        assertTrue(zero.contains("must be above 0 and at most 1000000 per second, got 0"), zero);
    }

    @Test
    void whereNoRateIsAllowedZeroIsNoneAndOtherValuesAreJudgedAsRates() {
        assertEquals(0, Rates.perSecondOrNone(FIELDS, "rate", "0"));
        assertEquals(0, Rates.perSecondOrNone(FIELDS, "rate", "0.0"));
        assertEquals(100, Rates.perSecondOrNone(FIELDS, "rate", "100"));
        String negative = assertThrows(ConfigException.class, () -> Rates.perSecondOrNone(FIELDS, "rate", "-5"))
                .getMessage();
        assertTrue(negative.contains("must be 0 (no schedule) or above 0 and at most 1000000 per second, got -5"),
                negative);
        String text = assertThrows(ConfigException.class, () -> Rates.perSecondOrNone(FIELDS, "rate", "fast"))
                .getMessage();
        assertTrue(text.contains("must be a number of arrivals per second"), text);
        assertThrows(ConfigException.class, () -> Rates.perSecondOrNone(FIELDS, "rate", "2000000"));
        assertThrows(ConfigException.class, () -> Rates.perSecondOrNone(FIELDS, "rate", " "));
    }
}
