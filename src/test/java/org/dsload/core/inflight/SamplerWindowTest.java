package org.dsload.core.inflight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;
import org.dsload.core.IntendedStart;
import org.dsload.core.RequestsResult;
import org.dsload.core.inflight.InMemoryStore.Answer;
import org.dsload.testing.HeardSamples;
import org.junit.jupiter.api.Test;

class SamplerWindowTest {
    private static final long MS = 1_000_000;

    /** Rows a sampler's samples return and rows it hands its listeners itself, as JMeter's listeners see them. */
    private static List<SampleResult> run(ArrivalSource source, int answeredAfterMillisOfEvery3) {
        HeardSamples heard = new HeardSamples();
        HeardSamples.samplerThreadWith(heard);
        Sampler sampler = new AbstractSampler() {
            @Override
            public SampleResult sample(Entry e) {
                return null;
            }
        };
        AtomicInteger numbers = new AtomicInteger();
        List<SampleResult> seen = new ArrayList<>();
        try (InMemoryStore store = new InMemoryStore(10_000, n -> new Answer(n % 3 == 0 ? answeredAfterMillisOfEvery3 : 1,
                InMemoryStore.OK))) {
            SamplerWindow<InMemoryStore.Request> window = new SamplerWindow<>(8, store,
                    request -> request.number = numbers.getAndIncrement());
            while (true) {
                int before = heard.results().size();
                IntendedStart.offer(sampler, source);
                RequestsResult row = window.sample(sampler, "GET");
                seen.addAll(heard.results().subList(before, heard.results().size()));
                if (row == null) {
                    break;
                }
                seen.add(row);
            }
        }
        return seen;
    }

    private static ArrivalSource arrivals(List<Long> intended, long measuredFrom) {
        return new ArrivalSource() {
            private int next;

            @Override
            public Arrival take(long nowNanos) {
                return next < intended.size() ? new Arrival(intended.get(next++), 0) : null;
            }

            @Override
            public long measuredFromNanos() {
                return measuredFrom;
            }
        };
    }

    private static List<Long> every(long first, int count, long apartNanos) {
        List<Long> intended = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            intended.add(first + i * apartNanos);
        }
        return intended;
    }

    /**
     * One schedule with a warm-up of its own: the requests of arrivals due before its measured window
     * are the warm-up's, by their intended start alone, also where one row holds replies of both (a
     * slow reply of the warm-up's last arrivals comes back with the measured window's first ones).
     */
    @Test
    void requestsMeantForTheWarmUpAreLabelledAsItsEvenInTheRowTheMeasuredWindowStartsIn() {
        long first = System.nanoTime() + 20 * MS;
        List<Long> intended = every(first, 60, MS);
        long measuredFrom = first + 30 * MS; // arrivals 0-29 are the warm-up's
        // every third request answers after 6 ms: rows gather replies of arrivals due up to 6 ms apart
        List<SampleResult> rows = run(arrivals(intended, measuredFrom), 6);

        List<Completion> warmUp = new ArrayList<>();
        List<Completion> measured = new ArrayList<>();
        for (SampleResult r : rows) {
            List<Completion> requests = ((RequestsResult) r).requests();
            if (r.getSampleLabel().equals("GET (warm-up)")) {
                warmUp.addAll(requests);
            } else {
                assertEquals("GET", r.getSampleLabel());
                measured.addAll(requests);
            }
        }
        assertEquals(intended.subList(0, 30), warmUp.stream().map(Completion::intendedNanos).sorted().toList(),
                "every request meant for the warm-up, and only those, under its label");
        assertEquals(intended.subList(30, 60), measured.stream().map(Completion::intendedNanos).sorted().toList(),
                "every request of the measured window under the sampler's label");
    }

    @Test
    void withoutAWarmUpEveryRowHasTheSamplersLabel() {
        long first = System.nanoTime() + 10 * MS;
        List<SampleResult> rows = run(arrivals(every(first, 20, MS), ArrivalSource.NO_WARM_UP), 3);
        assertTrue(rows.stream().allMatch(r -> r.getSampleLabel().equals("GET")), rows.toString());
        assertEquals(20, rows.stream().mapToInt(r -> ((RequestsResult) r).requests().size()).sum());
    }
}
