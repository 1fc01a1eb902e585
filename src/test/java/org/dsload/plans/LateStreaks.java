package org.dsload.plans;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Late arrivals a busy machine does not explain. Arrivals are taken in the order they were due; a
 * streak is a run of late ones with no arrival on time between them: a backlog, from the arrival
 * that first fell behind to the one that caught up. A streak is the machine's when a second it
 * spans (from the second of its first arrival to the second after its last, as each CPU reading
 * covers the second before it) had no core to spare: the backlog built up then, whenever it was
 * worked off. The late arrivals of every other streak are counted.
 */
final class LateStreaks {
    private LateStreaks() {
    }

    /** One measured arrival: when it was due (µs since the epoch) and whether it started late. */
    record Due(long intendedMicros, boolean late) {
    }

    static long unexplained(List<Due> arrivals, Set<Long> busySeconds) {
        List<Due> due = arrivals.stream().sorted(Comparator.comparingLong(Due::intendedMicros)).toList();
        long counted = 0;
        int i = 0;
        while (i < due.size()) {
            if (!due.get(i).late()) {
                i++;
                continue;
            }
            int first = i;
            while (i < due.size() && due.get(i).late()) {
                i++;
            }
            long from = Math.floorDiv(due.get(first).intendedMicros(), 1_000_000);
            long to = Math.floorDiv(due.get(i - 1).intendedMicros(), 1_000_000) + 1;
            boolean busy = false;
            for (long s = from; s <= to && !busy; s++) {
                busy = busySeconds.contains(s);
            }
            if (!busy) {
                counted += i - first;
            }
        }
        return counted;
    }
}
