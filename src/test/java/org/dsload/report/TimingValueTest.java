package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.dsload.core.format.TimingValue;
import org.junit.jupiter.api.Test;

class TimingValueTest {

    @Test
    void aSampleOutsideAScheduleKeepsTheTwoFieldForm() {
        assertEquals("1000:250", TimingValue.format(1000, 250));
        assertEquals("1000:250", TimingValue.format(1000, 250, TimingValue.NONE, 0));
        assertEquals(new TimingValue(1000, 250, TimingValue.NONE, 0), TimingValue.parse("1000:250", 1000, 0));
    }

    @Test
    void aScheduledSampleAddsItsDelayAndTheArrivalsDroppedBeforeIt() {
        assertEquals("1000:250:1500", TimingValue.format(1000, 250, 1500, 0));
        assertEquals("1000:250:1500:7", TimingValue.format(1000, 250, 1500, 7));
        assertEquals(new TimingValue(1000, 250, 1500, 7), TimingValue.parse("1000:250:1500:7", 1000, 0));
        assertEquals(new TimingValue(1000, 250, 1500, 0), TimingValue.parse("1000:250:1500", 1000, 0));
    }

    @Test
    void aSamplerThatDoesNotTimeItselfLeavesTheMicrosecondsEmpty() {
        assertEquals("1000::1500", TimingValue.format(1000, TimingValue.NONE, 1500, 0));
        TimingValue t = TimingValue.parse("1000::1500", 1000, 3);
        assertEquals(TimingValue.NONE, t.elapsedMicros());
        assertEquals(1500, t.delayMicros());
    }

    @Test
    void readersThatKnowOnlyTwoFieldsStillFindTheMicroseconds() {
        assertEquals(250, JtlReader.micros("1000:250:1500:7", 1000, 0));
        assertEquals(-1, JtlReader.micros("1000::1500", 1000, 0), "no µs: JMeter's milliseconds stand");
    }

    @Test
    void aValueLeftByAnEarlierSampleOfTheThreadIsIgnored() {
        assertNull(TimingValue.parse("900:250:10", 1000, 5));
        // stamped with its end (JMeter's default): start = timeStamp - elapsed
        assertEquals(250, TimingValue.parse("995:250:10", 1000, 5).elapsedMicros());
    }

    @Test
    void malformedValuesAreIgnored() {
        assertNull(TimingValue.parse("", 1000, 0));
        assertNull(TimingValue.parse("1000", 1000, 0));
        assertNull(TimingValue.parse("1000:x", 1000, 0));
        assertNull(TimingValue.parse("1000:1:-5", 1000, 0));
        assertNull(TimingValue.parse("1000:1:2:3:4", 1000, 0));
        assertNull(TimingValue.parse("1000:", 1000, 0));
    }
}
