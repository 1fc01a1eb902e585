package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LateStreaksTest {
    private static final long T0 = 1_796_000_000L;

    /** Arrivals every 100 ms from T0 for the given seconds, late where the predicate says. */
    private static List<LateStreaks.Due> arrivals(int seconds, java.util.function.IntPredicate late) {
        List<LateStreaks.Due> due = new ArrayList<>();
        for (int n = 0; n < seconds * 10; n++) {
            due.add(new LateStreaks.Due(T0 * 1_000_000 + n * 100_000L, late.test(n)));
        }
        java.util.Collections.reverse(due); // the order of the rows is not the order they were due
        return due;
    }

    @Test
    void aBacklogThatBeganInASecondWithNoCoreToSpareIsTheMachinesWhereverItEnds() {
        // late from 1.5 s to 3.9 s: the reading of second T0+2 (covering T0+1) was busy
        assertEquals(0, LateStreaks.unexplained(arrivals(5, n -> n >= 15 && n < 40), Set.of(T0 + 2)));
        // the same backlog when only the second after its end was busy
        assertEquals(0, LateStreaks.unexplained(arrivals(5, n -> n >= 15 && n < 40), Set.of(T0 + 4)));
    }

    @Test
    void lateArrivalsOfStreaksInSecondsWithCoresToSpareAreCounted() {
        assertEquals(25, LateStreaks.unexplained(arrivals(5, n -> n >= 15 && n < 40), Set.of()));
        assertEquals(25, LateStreaks.unexplained(arrivals(5, n -> n >= 15 && n < 40), Set.of(T0, T0 + 5)));
        // two streaks, one in a busy second: only the other counts
        assertEquals(3, LateStreaks.unexplained(arrivals(8, n -> n == 5 || n == 6 || n >= 70 && n < 73),
                Set.of(T0 + 1)));
        // late arrivals spread out, each its own streak, in quiet seconds
        assertEquals(8, LateStreaks.unexplained(arrivals(8, n -> n % 10 == 3), Set.of()));
        assertEquals(0, LateStreaks.unexplained(arrivals(3, n -> false), Set.of()));
    }
}
