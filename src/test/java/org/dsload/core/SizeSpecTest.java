package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SizeSpecTest {

    @Test
    void fixedSizeIsAlwaysThatSize() {
        SizeSpec spec = SizeSpec.parse("100");
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100; i++) {
            assertEquals(100, spec.next(random));
        }
        assertEquals(100.0, spec.mean());
    }

    @Test
    void rangeStaysWithinBoundsAndReachesBoth() {
        SizeSpec spec = SizeSpec.parse("10-12");
        SplittableRandom random = new SplittableRandom(2);
        boolean[] seen = new boolean[13];
        for (int i = 0; i < 1000; i++) {
            int size = spec.next(random);
            assertTrue(size >= 10 && size <= 12, "size " + size);
            seen[size] = true;
        }
        assertTrue(seen[10] && seen[11] && seen[12]);
        assertEquals(11.0, spec.mean());
    }

    @Test
    void weightedMixFollowsTheWeights() {
        SizeSpec spec = SizeSpec.parse("64:3, 1024:1");
        SplittableRandom random = new SplittableRandom(3);
        int small = 0;
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            if (spec.next(random) == 64) {
                small++;
            }
        }
        assertEquals(0.75, small / (double) n, 0.01);
        assertEquals((3 * 64 + 1024) / 4.0, spec.mean());
    }

    @Test
    void malformedSpecsSayWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SizeSpec.parse("")).getMessage().contains("empty"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SizeSpec.parse("10-5")).getMessage().contains("smallest first"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SizeSpec.parse("1k")).getMessage().contains("not a whole number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SizeSpec.parse("64:0")).getMessage().contains("weight"));
    }

    @Test
    void payloadsHaveTheRequestedSize() {
        SplittableRandom random = new SplittableRandom(4);
        assertEquals(0, Payloads.of(0, random).length);
        assertEquals(10_240, Payloads.of(10_240, random).length);
        assertEquals(3 << 20, Payloads.of(3 << 20, random).length);
    }
}
