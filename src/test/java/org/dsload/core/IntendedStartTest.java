package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

class IntendedStartTest {
    private static final long MS = 1_000_000;

    /** A sampler that paces itself, as the arrival elements see it. */
    private static final class Paced extends AbstractSampler implements IntendedStart.SelfPaced {
        private static final long serialVersionUID = 1L;

        @Override
        public SampleResult sample(Entry e) {
            return null;
        }
    }

    @Test
    void anOfferIsForTheSamplerItWasMadeForOnly() {
        Paced one = new Paced();
        Paced other = new Paced();
        ArrivalSource source = ArrivalSource.once(new ArrivalSource.Arrival(0, 0));
        IntendedStart.offer(one, source);
        assertNull(IntendedStart.takeOffer(other));
        IntendedStart.offer(one, source);
        assertSame(source, IntendedStart.takeOffer(one));
        assertNull(IntendedStart.takeOffer(one), "taken once");
    }

    @Test
    void aSelfPacedSampleStartsAtItsArrivalNeverBeforeAndLeavesItsStamp() {
        JMeterRuntime.freshVariables();
        Paced sampler = new Paced();
        JMeterContextService.getContext().setCurrentSampler(sampler);
        long[] early = new long[1];
        for (int i = 0; i < 50; i++) {
            long intended = System.nanoTime() + 3 * MS;
            IntendedStart.offer(sampler, ArrivalSource.once(new ArrivalSource.Arrival(intended, i % 7 == 0 ? 2 : 0)));
            assertTrue(IntendedStart.awaitOffered(sampler));
            long started = System.nanoTime();
            early[0] += started < intended ? 1 : 0;
            IntendedStart.Stamp stamp = IntendedStart.take();
            assertEquals(intended, stamp.intendedNanos());
            assertEquals(i % 7 == 0 ? 2 : 0, stamp.dropped());
        }
        assertEquals(0, early[0], "no sample started before its intended start");
    }

    @Test
    void withoutAnArrivalLeftTheSampleDoesNotRun() {
        JMeterRuntime.freshVariables();
        Paced sampler = new Paced();
        ArrivalSource none = now -> null;
        IntendedStart.offer(sampler, none);
        assertFalse(IntendedStart.awaitOffered(sampler));
        assertTrue(IntendedStart.awaitOffered(sampler), "without an offer a sample runs at once");
    }

    @Test
    void anArrivalWithoutAnIntendedStartRunsAtOnceWithoutAStamp() {
        JMeterRuntime.freshVariables();
        Paced sampler = new Paced();
        JMeterContextService.getContext().setCurrentSampler(sampler);
        IntendedStart.offer(sampler, ArrivalSource.once(new ArrivalSource.Arrival(Completion.UNSCHEDULED, 0)));
        assertTrue(IntendedStart.awaitOffered(sampler));
        assertNull(IntendedStart.take());
    }

    /** A sample of one request per arrival, its arrival of the schedule's warm-up or after it, labelled by its stamp. */
    @Test
    void aSampleOfAWarmUpArrivalGetsTheWarmUpsLabelOnceAndAMeasuredOneKeepsItsOwn() {
        JMeterRuntime.freshVariables();
        Paced sampler = new Paced();
        JMeterContextService.getContext().setCurrentSampler(sampler);
        long first = System.nanoTime() + MS;
        ArrivalSource.Arrival[] due = {new ArrivalSource.Arrival(first, 0), new ArrivalSource.Arrival(first + 2 * MS, 0)};
        ArrivalSource source = new ArrivalSource() {
            private int next;

            @Override
            public Arrival take(long nowNanos) {
                return next < due.length ? due[next++] : null;
            }

            @Override
            public long measuredFromNanos() {
                return first + MS;
            }
        };
        for (String expected : new String[] {"GET (warm-up)", "GET"}) {
            IntendedStart.offer(sampler, source);
            assertTrue(IntendedStart.awaitOffered(sampler));
            SampleResult result = new SampleResult();
            result.setSampleLabel("GET");
            IntendedStart.Stamp stamp = IntendedStart.take();
            stamp.label(result);
            stamp.label(result);
            assertEquals(expected, result.getSampleLabel());
        }
    }
}
