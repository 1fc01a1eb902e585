package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class CapacityJudgeTest {
    /** 10 domains, then +10 every 60 s up to 30; at most 1 % errors and a p99 of 500 ms. */
    private static CapacityJudge judge() {
        return new CapacityJudge(10, 10, 30, 60_000, 1.0, 500_000, "domains");
    }

    @Test
    void stepsGrowByTheStepUpToTheMaximum() {
        CapacityJudge j = new CapacityJudge(10, 10, 35, 60_000, 1, 500_000, "domains");
        assertEquals(4, j.steps());
        assertEquals(List.of(10, 20, 30, 35), List.of(j.unitsAt(0), j.unitsAt(1), j.unitsAt(2), j.unitsAt(3)));
    }

    @Test
    void theFirstStepOverItsP99BoundEndsTheSearchWithThePreviousStepsLoad() {
        CapacityJudge j = judge();
        for (int i = 0; i < 100; i++) {
            assertFalse(j.add(1_000 + i, 20_000, true));
            assertFalse(j.add(61_000 + i, i < 95 ? 40_000 : 900_000, true));
        }
        assertFalse(j.add(121_000, 1_000, true), "step 2 waits for its late samples");
        assertFalse(j.add(60_500, 1_000, true), "a late sample of step 2");
        assertTrue(j.add(133_000, 1_000, true), "a sample a fifth into step 3 closes step 2, which failed");
        assertEquals("capacity reached: 10 domains (step 2 with 20 domains failed: p99 900 ms > 500 ms)", j.verdict());
        assertEquals("step 1: 10 domains, 100 samples, errors 0.00%, p99 20 ms: ok", j.lines().get(0));
        assertTrue(j.lines().get(1).startsWith("step 2: 20 domains, 101 samples"), j.lines().get(1));
    }

    @Test
    void samplesAfterTheLastStepCountInIt() {
        CapacityJudge j = judge();
        j.add(1_000, 1_000, true);
        j.add(61_000, 1_000, true);
        assertFalse(j.add(500_000, 900_000, true));
        j.finish();
        assertEquals("capacity reached: 20 domains (step 3 with 30 domains failed: p99 900 ms > 500 ms)", j.verdict());
    }

    @Test
    void errorsAboveTheirShareFailAStep() {
        CapacityJudge j = judge();
        for (int i = 0; i < 100; i++) {
            j.add(i, 1_000, i >= 2);
        }
        j.finish();
        assertEquals("no step passed (step 1 with 10 domains failed: errors 2.00% > 1.00%)", j.verdict());
    }

    @Test
    void everyStepPassingGivesALowerBound() {
        CapacityJudge j = judge();
        for (long t = 0; t < 180_000; t += 1_000) {
            j.add(t, 1_000, true);
        }
        j.finish();
        assertEquals(3, j.lines().size());
        assertEquals("at least 30 domains: every step passed (raise the maximum to find the limit)", j.verdict());
    }

    @Test
    void aTestEndingEarlyIsSaidSo() {
        CapacityJudge j = judge();
        j.add(5_000, 1_000, true);
        j.finish();
        assertEquals("10 domains passed; the test ended before step 2 of 3", j.verdict());
    }
}
