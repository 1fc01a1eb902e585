package org.dsload.arrivals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.ArrivalSource;
import org.dsload.core.GeneratorMetrics;
import org.junit.jupiter.api.Test;

import com.codahale.metrics.MetricRegistry;

class EvenScheduleTest {
    private static final long MS = 1_000_000;

    @Test
    void slotsAreEvenlySpacedFromTheOrigin() {
        EvenSchedule s = new EvenSchedule(1000 * MS, 4, 0); // every 250 ms
        assertEquals(new EvenSchedule.Slot(0, 1000 * MS, 0), s.take(1000 * MS));
        assertEquals(new EvenSchedule.Slot(1, 1250 * MS, 0), s.take(1000 * MS));
        assertEquals(new EvenSchedule.Slot(2, 1500 * MS, 0), s.take(1001 * MS));
    }

    @Test
    void aScheduleStartsWhenItsFirstThreadIsReadyUnlessASlotWasTaken() {
        EvenSchedule s = new EvenSchedule(1000 * MS, 4, 0);
        s.startAt(1012 * MS); // the thread opened its connections for 12 ms
        assertEquals(new EvenSchedule.Slot(0, 1012 * MS, 0), s.take(1012 * MS));
        s.startAt(1020 * MS); // a second thread ready after the first took a slot: the start stays
        assertEquals(new EvenSchedule.Slot(1, 1262 * MS, 0), s.take(1020 * MS));
        EvenSchedule early = new EvenSchedule(1000 * MS, 4, 0);
        early.startAt(990 * MS); // never earlier than it was made
        assertEquals(new EvenSchedule.Slot(0, 1000 * MS, 0), early.take(1000 * MS));
    }

    @Test
    void withoutADropLimitEveryLateSlotIsStillSent() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0);
        // a thread that comes back 5 s late gets the oldest slot: its wait counts in its latency
        assertEquals(new EvenSchedule.Slot(0, 0, 0), s.take(5000 * MS));
        assertEquals(new EvenSchedule.Slot(1, MS, 0), s.take(5000 * MS));
    }

    @Test
    void slotsOlderThanTheDropLimitAreSkippedAndCounted() {
        EvenSchedule s = new EvenSchedule(0, 1000, 100 * MS); // every ms, drop after 100 ms
        s.take(0);
        EvenSchedule.Slot slot = s.take(1000 * MS);
        // slots 1..899 are more than 100 ms late at t = 1000 ms; slot 900 is exactly 100 ms late
        assertEquals(900, slot.index());
        assertEquals(899, slot.dropped());
        assertEquals(900 * MS, slot.dueNanos());
        assertEquals(new EvenSchedule.Slot(901, 901 * MS, 0), s.take(1000 * MS));
    }

    @Test
    void aSlotDueAtOrAfterTheThreadsEndIsLeftForAThreadThatCanSendIt() {
        EvenSchedule s = new EvenSchedule(0, 4, 0); // every 250 ms
        assertEquals(new EvenSchedule.Slot(0, 0, 0), s.takeBefore(0, 500 * MS));
        assertEquals(new EvenSchedule.Slot(1, 250 * MS, 0), s.takeBefore(0, 500 * MS));
        assertNull(s.takeBefore(0, 500 * MS), "slot 2 is due at the end itself");
        assertEquals(new EvenSchedule.Slot(2, 500 * MS, 0), s.takeBefore(0, 2000 * MS), "still there for another");
    }

    @Test
    void fractionalRatesKeepTheirAverage() {
        EvenSchedule s = new EvenSchedule(0, 3, 0);
        assertEquals(333_333_333L, s.dueNanos(1));
        assertEquals(1_000_000_000L, s.dueNanos(3));
        assertEquals(100_000_000_000L, s.dueNanos(300));
    }

    @Test
    void slotsDueWhileAThreadBacksOffAreSkippedNotSentLate() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0); // every ms
        s.take(0);
        assertEquals(999, s.skipUntil(1000 * MS, Long.MAX_VALUE), "slots 1 to 999 fell due during the pause");
        assertEquals(new EvenSchedule.Slot(1000, 1000 * MS, 0), s.take(1000 * MS), "the next one is on time");
        assertEquals(0, s.skipUntil(500 * MS, Long.MAX_VALUE), "nothing twice");
    }

    @Test
    void aThreadSkipsNoSlotPastItsOwnEnd() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0);
        assertEquals(100, s.skipUntil(1000 * MS, 100 * MS));
        assertEquals(new EvenSchedule.Slot(100, 100 * MS, 0), s.take(1000 * MS), "left for a thread that can send it");
    }

    @Test
    void slotsNoThreadTookBeforeTheScheduleEndedAreMissedOnce() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0);
        assertEquals(0, s.untakenAtEnd(), "no thread took any: nothing to say");
        s.threadTakes(2000 * MS);
        s.take(0);
        s.take(0);
        s.threadFinished(2500 * MS);
        assertEquals(1998, s.untakenAtEnd(), "slots 2 to 1999 were due before the threads' end");
        assertEquals(0, s.untakenAtEnd());
    }

    @Test
    void aWarmUpOfItsOwnEndsWarmUpSecondsAfterTheScheduleWasMadeWhateverItsFirstThreadsConnectionsTook() {
        assertEquals(ArrivalSource.NO_WARM_UP, new EvenSchedule(1000 * MS, 4, 0).measuredFromNanos());
        EvenSchedule s = new EvenSchedule(1000 * MS, 4, 0, 0, 600 * MS);
        assertEquals(1600 * MS, s.measuredFromNanos());
        // its first thread opened its connections for 112 ms: the warm-up takes that time, the measured window
        // keeps its length up to the threads' end
        s.startAt(1112 * MS);
        assertEquals(1600 * MS, s.measuredFromNanos());
        assertTrue(ArrivalSource.warmUp(s.take(1112 * MS).dueNanos(), s.measuredFromNanos()), "due at 1112 ms");
        assertTrue(ArrivalSource.warmUp(s.take(1112 * MS).dueNanos(), s.measuredFromNanos()), "due at 1362 ms");
        assertTrue(!ArrivalSource.warmUp(s.take(1112 * MS).dueNanos(), s.measuredFromNanos()), "due at 1612 ms");
    }

    @Test
    void slotsOfItsWarmUpNoThreadTookByItsEndAreTheWarmUpsMissedAndTheThreadsGoOnWithTheMeasuredWindow() {
        Map<String, Long> before = counters();
        EvenSchedule s = new EvenSchedule(0, 1000, 0, 0, 100 * MS); // every ms, measured from 100 ms
        assertEquals(new EvenSchedule.Slot(0, 0, 0), s.take(0));
        assertEquals(new EvenSchedule.Slot(1, MS, 0), s.take(99 * MS), "late, within the warm-up: still sent");
        // a thread back at 150 ms: slots 2-99 were the warm-up's, and slot 100 is the measured window's first
        assertEquals(new EvenSchedule.Slot(100, 100 * MS, 0), s.take(150 * MS));
        assertEquals(risen(0, 0, 0, 98), risenSince(before));
        assertEquals(new EvenSchedule.Slot(101, 101 * MS, 0), s.take(150 * MS), "then on, late ones are sent");
    }

    @Test
    void dropsAndMissesInTheScheduleOwnWarmUpAreTheWarmUpsAndAfterItTheMeasuredWindows() {
        Map<String, Long> before = counters();
        long now = System.nanoTime();
        EvenSchedule inWarmUp = new EvenSchedule(now, 1000, 0, 0, 3600_000 * MS);
        inWarmUp.countDropped(3);
        EvenSchedule pastWarmUp = new EvenSchedule(now - 2000 * MS, 1000, 0, 0, 1000 * MS);
        pastWarmUp.countDropped(5);
        // slots 1-99 untaken when its thread finished at 100 ms: within the 500 ms warm-up of one, after the 50 ms of the other
        EvenSchedule endedInWarmUp = new EvenSchedule(0, 1000, 0, 0, 500 * MS);
        EvenSchedule endedMeasuring = new EvenSchedule(0, 1000, 0, 0, 50 * MS);
        for (EvenSchedule s : List.of(endedInWarmUp, endedMeasuring)) {
            s.threadTakes(100 * MS);
            s.take(0);
            s.threadFinished(100 * MS);
            s.countMissed();
        }
        assertEquals(risen(5, 99, 3, 99), risenSince(before));
    }

    @Test
    void aWarmUpsDropsAndMissesAreCountedApartFromTheMeasuredOnes() {
        Map<String, Long> before = counters();
        EvenSchedule warmUp = new EvenSchedule(0, 1000, 0);
        warmUp.warmUp();
        EvenSchedule measured = new EvenSchedule(0, 1000, 0);
        for (EvenSchedule s : List.of(warmUp, measured)) {
            s.threadTakes(100 * MS);
            s.take(0);
            s.threadFinished(200 * MS);
        }
        warmUp.countDropped(3);
        warmUp.countMissed();
        measured.countMissed();
        assertEquals(risen(0, 99, 3, 99), risenSince(before));
    }

    @Test
    void aScheduleWhoseThreadsFinishedEarlyMissesOnlyWhatFellDueBeforeThen() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0);
        s.threadTakes(Long.MAX_VALUE); // a thread group of loops: no end time
        s.take(0);
        s.threadFinished(10 * MS);
        assertEquals(9, s.untakenAtEnd());
    }

    @Test
    void itAimsAtItsRateWhileItsThreadsTakeSlotsAndNotBeforeOrAfter() {
        EvenSchedule s = new EvenSchedule(1000 * MS, 4, 0);
        assertEquals(4.0, s.perSecond(1000 * MS), 1e-9);
        org.junit.jupiter.api.Assertions.assertFalse(s.active(1000 * MS), "no thread took a slot yet");
        s.threadTakes(5000 * MS);
        org.junit.jupiter.api.Assertions.assertTrue(s.active(2000 * MS));
        org.junit.jupiter.api.Assertions.assertFalse(s.active(5000 * MS), "its threads' end has come");
        EvenSchedule endless = new EvenSchedule(1000 * MS, 4, 0);
        endless.threadTakes(Long.MAX_VALUE);
        org.junit.jupiter.api.Assertions.assertTrue(endless.active(9000 * MS));
        endless.threadFinished(9500 * MS);
        org.junit.jupiter.api.Assertions.assertFalse(endless.active(9600 * MS), "a thread without an end finished");
    }

    @Test
    void aNewRateStartsAtTheChangeWithoutTheOldRatesOverdueSlots() {
        EvenSchedule s = new EvenSchedule(0, 1000, 0); // every ms
        s.take(0);
        s.take(0);
        // at 5 s slots 2..5000 of the old rate are overdue: the new rate starts at 5 s, not with a burst of them
        s.rebase(5000 * MS, 10);
        assertEquals(10, s.perSecond(5000 * MS), 1e-9);
        assertEquals(new EvenSchedule.Slot(2, 5000 * MS, 0), s.take(5000 * MS));
        assertEquals(new EvenSchedule.Slot(3, 5100 * MS, 0), s.take(5000 * MS));
        s.rebase(5000 * MS, 10); // the same rate again: nothing changes
        assertEquals(new EvenSchedule.Slot(4, 5200 * MS, 0), s.take(5000 * MS));
    }

    @Test
    void aNewRateWhoseScheduleIsAheadStartsAtTheNextSlot() {
        EvenSchedule s = new EvenSchedule(0, 1, 0); // every second
        s.take(0);
        s.rebase(100 * MS, 1000); // slot 1 is due at 1 s: the faster rate starts there, not earlier
        assertEquals(new EvenSchedule.Slot(1, 1000 * MS, 0), s.take(100 * MS));
        assertEquals(new EvenSchedule.Slot(2, 1001 * MS, 0), s.take(100 * MS));
        // skipping and the drop limit count within the new rate's slots
        assertEquals(999, s.skipUntil(2001 * MS, Long.MAX_VALUE), "slots 3..1001, due 1002 ms to 2000 ms");
        assertEquals(new EvenSchedule.Slot(1002, 2001 * MS, 0), s.take(2001 * MS));
    }

    @Test
    void aRampRaisesTheRateEvenlyFromZeroAndThenKeepsIt() {
        EvenSchedule s = new EvenSchedule(0, 1000, 10_000 * MS, 0); // 0 to 1000/s over 10 s: 5,000 arrivals
        assertEquals(0, s.dueNanos(0));
        assertEquals(5000 * MS, s.dueNanos(1250), "a quarter of the ramp's arrivals in its first half");
        assertEquals(10_000 * MS, s.dueNanos(5000));
        assertEquals(11_000 * MS, s.dueNanos(6000), "then one each ms");
        assertEquals(500, s.perSecond(5000 * MS), 1e-9);
        assertEquals(1000, s.perSecond(12_000 * MS), 1e-9);
        for (long n = 1; n < 7000; n++) {
            assertTrue(s.dueNanos(n) > s.dueNanos(n - 1), "slot " + n + " after slot " + (n - 1));
        }
    }

    @Test
    void aRampsDropLimitAndSkipsCountItsOwnSlots() {
        EvenSchedule s = new EvenSchedule(0, 1000, 10_000 * MS, 100 * MS);
        s.take(0);
        // at 5 s the slots due before 4.9 s are more than 100 ms late: slot 1201 (4.901 s) is the oldest kept
        EvenSchedule.Slot slot = s.take(5000 * MS);
        assertEquals(1201, slot.index());
        assertEquals(1200, slot.dropped());
        assertEquals(1250 - 1202, s.skipUntil(5000 * MS, Long.MAX_VALUE), "slots 1202..1249, due before 5 s");
        assertEquals(new EvenSchedule.Slot(1250, 5000 * MS, 0), s.take(5000 * MS));
        // a new rate ends the ramp: from the next slot's time on at the new rate
        long nextDue = s.dueNanos(1251); // 5.002 s
        s.rebase(5000 * MS, 10);
        assertEquals(new EvenSchedule.Slot(1251, nextDue, 0), s.take(5000 * MS));
        assertEquals(nextDue + 100 * MS, s.dueNanos(1252));
        assertEquals(10, s.perSecond(5001 * MS), 1e-9);
    }

    private static final List<String> COUNTERS = List.of(GeneratorMetrics.ARRIVALS_DROPPED, GeneratorMetrics.ARRIVALS_MISSED,
            GeneratorMetrics.WARM_UP_ARRIVALS_DROPPED, GeneratorMetrics.WARM_UP_ARRIVALS_MISSED);

    /** The generator's counters of dropped and missed arrivals now, measured and warm-up's. */
    private static Map<String, Long> counters() {
        MetricRegistry figures = GeneratorMetrics.registry();
        Map<String, Long> now = new LinkedHashMap<>();
        COUNTERS.forEach(name -> now.put(name, figures.counter(name).getCount()));
        return now;
    }

    private static Map<String, Long> risenSince(Map<String, Long> before) {
        Map<String, Long> risen = new LinkedHashMap<>();
        counters().forEach((name, count) -> risen.put(name, count - before.get(name)));
        return risen;
    }

    /** Rises of the counters: dropped, missed, the warm-up's dropped, the warm-up's missed. */
    private static Map<String, Long> risen(long dropped, long missed, long warmUpDropped, long warmUpMissed) {
        return Map.of(GeneratorMetrics.ARRIVALS_DROPPED, dropped, GeneratorMetrics.ARRIVALS_MISSED, missed,
                GeneratorMetrics.WARM_UP_ARRIVALS_DROPPED, warmUpDropped, GeneratorMetrics.WARM_UP_ARRIVALS_MISSED, warmUpMissed);
    }
}
