package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What a schedule does next and when: offsets, triggers, faults in force, restarts, a load that ends first. */
class TimelineTest {
    private static final Target NODE = new Target("n", Map.of());

    private static PlannedFault fault(int number, FaultKind kind, String start, long millis) {
        return new PlannedFault(number, kind, NODE, Map.of(), StartSpec.parse(start), millis,
                kind.network() ? new ProxyDriver() : new ProcessDriver());
    }

    @Test
    void aFaultOnATriggerHasNoTimeUntilTheTriggerFires() {
        PlannedFault onLoad = fault(1, FaultKind.CPU, "on load + 5s", 10_000);
        Timeline t = new Timeline(List.of(onLoad), 1_000);
        assertEquals(new Timeline.Event(true, onLoad, Timeline.UNKNOWN), t.next(name -> null));
        assertEquals(new Timeline.Event(true, onLoad, 47_000), t.next(name -> name.equals("load") ? 42_000L : null));
    }

    @Test
    void theEarliestEventComesFirstEvenARevertBeforeAnotherFaultsStart() {
        PlannedFault shortOne = fault(1, FaultKind.DELAY, "0s", 2_000);
        PlannedFault later = fault(2, FaultKind.CPU, "5s", 2_000);
        // the revert of the first (due at 2.1 s) comes before the start of the second (due at 5 s)
        Timeline t = new Timeline(List.of(shortOne, later), 0);
        assertEquals(new Timeline.Event(true, shortOne, 0), t.next(name -> null));
        t.applied(shortOne, 100);
        assertEquals(List.of(shortOne), t.inForce());
        assertEquals(List.of(later), t.waiting());
        assertEquals(new Timeline.Event(false, shortOne, 2_100), t.next(name -> null));
        t.over(shortOne, 2_100);
        assertEquals(new Timeline.Event(true, later, 5_000), t.next(name -> null));
    }

    @Test
    void aRestartIsOverOnceApplied() {
        PlannedFault restart = fault(1, FaultKind.RESTART, "1s", 30_000);
        PlannedFault after = fault(2, FaultKind.KILL, "after 1 + 2s", 1_000);
        Timeline t = new Timeline(List.of(restart, after), 0);
        t.applied(restart, 1_500);
        assertEquals(List.of(), t.inForce(), "nothing to revert");
        assertEquals(new Timeline.Event(true, after, 3_500), t.next(name -> null), "the gap counts from the restart");
    }

    @Test
    void faultsStillWaitingWhenTheLoadEndsAreSkippedNotApplied() {
        PlannedFault applied = fault(1, FaultKind.PAUSE, "0s", 1_000);
        PlannedFault never = fault(2, FaultKind.MEMORY, "on never", 1_000);
        Timeline t = new Timeline(List.of(applied, never), 0);
        t.applied(applied, 0);
        t.over(applied, 1_000);
        t.skipWaiting(9_000);
        assertEquals(List.of(), t.waiting());
        assertNull(t.next(name -> null));
        assertEquals(9_000, t.lastEnd());
    }

    @Test
    void beforeAnyFaultEndsTheLastEndIsTheOrigin() {
        Timeline t = new Timeline(List.of(fault(1, FaultKind.DISK, "10s", 1_000)), 7_000);
        assertEquals(7_000, t.lastEnd());
    }
}
