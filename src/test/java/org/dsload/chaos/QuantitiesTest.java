package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Durations, sizes, rates and shares as a schedule's author writes them, and the errors for what is not one. */
class QuantitiesTest {

    @Test
    void durationsAreUnitsInAnyCombinationAndABareNumberIsSeconds() {
        assertEquals(200, Quantities.millis("200ms"));
        assertEquals(20_000, Quantities.millis("20s"));
        assertEquals(90_000, Quantities.millis("1m30s"));
        assertEquals(3_600_000, Quantities.millis("1h"));
        assertEquals(1_500, Quantities.millis("1.5s"));
        assertEquals(2_500, Quantities.millis("2.5"));
        assertEquals(30_000, Quantities.millis(" 30 S "), "case and spaces do not matter");
    }

    @Test
    void aDurationThatIsNotOneSaysHowToWriteOne() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> Quantities.millis(" "));
        assertTrue(missing.getMessage().contains("a duration is missing"), missing.getMessage());
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> Quantities.millis("20x"));
        assertEquals("'20x' is not a duration (write 200ms, 20s or 1m30s)", wrong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Quantities.millis("s20"), "a unit without a number");
        assertThrows(IllegalArgumentException.class, () -> Quantities.millis("1m 30"), "a number without a unit after one");
    }

    @Test
    void sizesUsePowersOf1024() {
        assertEquals(4096, Quantities.bytes("4096"));
        assertEquals(4096, Quantities.bytes("4096b"));
        assertEquals(64 << 10, Quantities.bytes("64k"));
        assertEquals(64 << 10, Quantities.bytes("64KiB"));
        assertEquals(10L << 20, Quantities.bytes("10MB"));
        assertEquals(1L << 30, Quantities.bytes("1g"));
        assertEquals(3L << 29, Quantities.bytes("1.5GiB"));
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("3 TB"));
        assertEquals("'3 TB' has unknown size unit 'TB'", unit.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("lots"));
    }

    @Test
    void ratesInBitsUsePowersOf1000AndRatesInBytesAreBytes() {
        assertEquals(125_000, Quantities.bytesPerSecond("1mbit"));
        assertEquals(62_500, Quantities.bytesPerSecond("500kbit"));
        assertEquals(125_000_000, Quantities.bytesPerSecond("1gbit"));
        assertEquals(1, Quantities.bytesPerSecond("8bit"));
        assertEquals(2_000_000, Quantities.bytesPerSecond("2mbps"));
        assertEquals(100_000, Quantities.bytesPerSecond("100kb/s"));
        assertEquals(300, Quantities.bytesPerSecond("300"));
        IllegalArgumentException slow = assertThrows(IllegalArgumentException.class,
                () -> Quantities.bytesPerSecond("4bit"));
        assertEquals("'4bit' is below one byte per second", slow.getMessage());
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class,
                () -> Quantities.bytesPerSecond("1 furlong"));
        assertTrue(unit.getMessage().contains("unknown rate unit 'furlong'"), unit.getMessage());
    }

    @Test
    void aShareIsAPercentOrAFraction() {
        assertEquals(0.5, Quantities.share("50%"));
        assertEquals(0.5, Quantities.share("50"));
        assertEquals(0.5, Quantities.share("0.5"));
        assertEquals(1.0, Quantities.share("1"), "1 is the whole, not 1 %");
        assertEquals(0.0, Quantities.share("0 %"));
        assertEquals("'half' is not a share (write 50% or 0.5)",
                assertThrows(IllegalArgumentException.class, () -> Quantities.share("half")).getMessage());
        assertEquals("'-5%' is not between 0 % and 100 %",
                assertThrows(IllegalArgumentException.class, () -> Quantities.share("-5%")).getMessage());
    }

    @Test
    void durationsAreShownTheWayAPersonWritesThem() {
        assertEquals("200ms", Quantities.format(200));
        assertEquals("1.5s", Quantities.format(1_500));
        assertEquals("20s", Quantities.format(20_000));
        assertEquals("2m", Quantities.format(120_000));
        assertEquals("90s", Quantities.format(90_000));
        for (long millis : new long[] {200, 1_500, 20_000, 120_000, 90_000}) {
            assertEquals(millis, Quantities.millis(Quantities.format(millis)), "read back: " + millis);
        }
    }
}
