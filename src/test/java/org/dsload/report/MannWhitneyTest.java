package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class MannWhitneyTest {

    @Test
    void smallSetsWithoutTiesGetTheExactPValue() {
        // U = 3 of 20 pairs: 14 of the 126 splits of the 9 values are as extreme, on either side
        MannWhitney test = MannWhitney.test(new double[] {19, 22, 16, 29, 24}, new double[] {20, 11, 17, 12});
        assertEquals(3, test.u());
        assertEquals(14.0 / 126, test.p(), 1e-12);
        assertTrue(test.secondLower());
    }

    @Test
    void theExactPValueIsTheShareOfEverySplitAsExtreme() {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            int n1 = 2 + random.nextInt(5);
            int n2 = 2 + random.nextInt(5);
            double[] values = random.doubles(n1 + n2).toArray();
            double[] first = java.util.Arrays.copyOf(values, n1);
            double[] second = java.util.Arrays.copyOfRange(values, n1, n1 + n2);
            MannWhitney test = MannWhitney.test(first, second);
            double low = Math.min(test.u(), n1 * n2 - test.u());
            int extreme = 0;
            int splits = 0;
            for (int mask = 0; mask < 1 << (n1 + n2); mask++) {
                if (Integer.bitCount(mask) != n2) {
                    continue;
                }
                splits++;
                int u = 0;
                for (int i = 0; i < n1 + n2; i++) {
                    for (int j = 0; j < n1 + n2; j++) {
                        if ((mask & 1 << i) == 0 && (mask & 1 << j) != 0 && values[j] > values[i]) {
                            u++;
                        }
                    }
                }
                if (Math.min(u, n1 * n2 - u) <= low) {
                    extreme++;
                }
            }
            assertEquals(Math.min(1, (double) extreme / splits), test.p(), 1e-9, n1 + " and " + n2 + " values");
        }
    }

    @Test
    void tiesTakeTheNormalApproximationWithTheTieCorrection() {
        // worked by hand: rank sum of the second set 153.5, U 87.5 of 110, tie term 30, z 2.266
        MannWhitney test = MannWhitney.test(new double[] {10, 12, 12, 15, 15, 15, 18, 20, 22, 25},
                new double[] {14, 15, 18, 18, 21, 24, 26, 26, 30, 31, 33});
        assertEquals(87.5, test.u());
        assertEquals(0.0235023, test.p(), 1e-6);
        assertTrue(test.secondHigher());
    }

    @Test
    void setsFromOneDistributionAreRarelyTold() {
        Random random = new Random(11);
        int told = 0;
        for (int round = 0; round < 200; round++) {
            if (MannWhitney.test(random.doubles(10).toArray(), random.doubles(10).toArray()).p() < 0.01) {
                told++;
            }
        }
        assertTrue(told <= 6, told + " of 200 alike pairs were told apart at alpha 0.01");
        assertTrue(MannWhitney.test(random.doubles(10).toArray(), random.doubles(10).map(v -> v + 0.5).toArray())
                .p() < 0.01, "a shift by half the range is found");
    }

    @Test
    void tooFewValuesCanNeverBeTold() {
        assertEquals(2.0 / 20, MannWhitney.smallestP(3, 3), 1e-12);
        assertEquals(2.0 / 252, MannWhitney.smallestP(5, 5), 1e-12);
        assertEquals(1, MannWhitney.test(new double[0], new double[] {1}).p());
        assertFalse(MannWhitney.test(new double[] {1, 1}, new double[] {1, 1}).p() < 1);
    }
}
