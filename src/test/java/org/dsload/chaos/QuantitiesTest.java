package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Durations, sizes, rates and shares as a schedule's author writes them, and the errors for what is not one. */
class QuantitiesTest {

    @Test
    void durationsAreUnitsInAnyCombinationAndABareNumberIsSeconds() {
        Map.of("200ms", 200L, "20s", 20_000L, "1m30s", 90_000L, "1h", 3_600_000L, "1.5s", 1_500L, "2.5", 2_500L,
                " 30 S ", 30_000L).forEach((text, millis) -> assertEquals(millis, Quantities.millis(text), text));
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
        Map.of("4096", 4096L, "4096b", 4096L, "64k", 64L << 10, "64KiB", 64L << 10, "10MB", 10L << 20, "1g", 1L << 30,
                "1.5GiB", 3L << 29).forEach((text, bytes) -> assertEquals(bytes, Quantities.bytes(text), text));
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("3 TB"));
        assertEquals("'3 TB' has unknown size unit 'TB'", unit.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Quantities.bytes("lots"));
    }

    @Test
    void ratesInBitsUsePowersOf1000AndRatesInBytesAreBytes() {
        Map.of("1mbit", 125_000L, "500kbit", 62_500L, "1gbit", 125_000_000L, "8bit", 1L, "2mbps", 2_000_000L,
                "100kb/s", 100_000L, "300", 300L)
                .forEach((text, rate) -> assertEquals(rate, Quantities.bytesPerSecond(text), text));
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
        Map.of(200L, "200ms", 1_500L, "1.5s", 20_000L, "20s", 120_000L, "2m", 90_000L, "90s").forEach((millis, text) -> {
            assertEquals(text, Quantities.format(millis));
            assertEquals(millis, Quantities.millis(text), "reads back");
        });
    }
}
