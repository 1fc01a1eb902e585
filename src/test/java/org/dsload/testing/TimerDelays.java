package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;

import org.apache.jmeter.samplers.Sampler;
import org.dsload.core.ArrivalSource;
import org.dsload.core.Completion;

/**
 * How late a JMeter timer's whole-millisecond sleep starts a sample, measured on this machine, and
 * the start delays of a sampler's own sends to compare with it.
 */
public final class TimerDelays {
    private TimerDelays() {
    }

    public static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * {@link #wholeMillisecond} on a thread of its own, begun now, while the caller runs its own
     * schedule: both are timed under the same load of the machine (a reference taken after a run
     * may find a busier or a quieter machine than the run did). {@code join()} gives the delays.
     */
    public static CompletableFuture<long[]> beside(int arrivals) {
        return CompletableFuture.supplyAsync(() -> wholeMillisecond(arrivals), task -> {
            Thread thread = new Thread(task, "timer reference");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** The start delays of arrivals 2 ms apart waited for as a JMeter timer does: a sleep in whole ms, rounded up. */
    public static long[] wholeMillisecond(int arrivals) {
        long start = System.nanoTime() + 5_000_000L;
        long[] delays = new long[arrivals];
        for (int i = 0; i < arrivals; i++) {
            long intended = start + 2_000_000L * i;
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep((wait + 999_999) / 1_000_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return delays;
                }
            }
            delays[i] = (System.nanoTime() - intended) / 1000;
        }
        return delays;
    }

    /**
     * The start delays (µs) of the scheduled requests, in the order they were due, that found the
     * sender idle at their intended start: the request due before had been sent, and fewer than
     * {@code places} others were outstanding. The delay of the send itself, without the wait behind
     * earlier arrivals that a cold start or a slow server makes.
     */
    public static long[] whenIdle(List<Completion> requests, int places) {
        List<Completion> due = requests.stream()
                .sorted(Comparator.comparingLong(Completion::intendedNanos)).toList();
        LongStream.Builder judged = LongStream.builder();
        for (int i = 1; i < due.size(); i++) {
            long at = due.get(i).intendedNanos();
            long outstanding = due.stream().filter(o -> o.sendNanos() <= at && o.endNanos() > at).count();
            if (due.get(i - 1).sendNanos() <= at && outstanding < places) {
                judged.add(due.get(i).delayMicros());
            }
        }
        return judged.build().toArray();
    }

    /**
     * A self-paced sampler, warmed by half a second of unscheduled samples (its connections open,
     * its path compiled), takes {@code arrivals} arrivals 2 ms apart on the thread {@code run}, which
     * it ends: each is sent at or after its intended start, and the sends that found the sender idle
     * ({@link #whenIdle}) start with a median delay below that of a timer's whole-millisecond sleeps
     * timed on another thread at the same time ({@link #beside}).
     */
    public static void assertSentOnTimeSoonerThanATimer(SamplerThread run, Sampler sampler, int arrivals,
            int places) {
        CompletableFuture<long[]> timer;
        try (run) {
            run.loop(sampler, Duration.ofMillis(500));
            long start = System.nanoTime() + 50_000_000L;
            timer = beside(arrivals);
            run.drain(sampler, new ArrivalSource() {
                private int n;

                @Override
                public Arrival take(long nowNanos) {
                    return n < arrivals ? new Arrival(start + 2_000_000L * n++, 0) : null;
                }
            });
        }
        List<Completion> requests = run.requests().stream().filter(Completion::scheduled).toList();
        assertEquals(arrivals, requests.size());
        assertTrue(requests.stream().allMatch(r -> r.sendNanos() >= r.intendedNanos()), "never early");
        long[] judged = whenIdle(requests, places);
        assertTrue(judged.length >= arrivals / 5, "only " + judged.length + " requests found the sender idle");
        long ours = median(judged);
        long reference = median(timer.join());
        System.out.println("dsload: median start delay " + ours + " µs over " + judged.length
                + " requests that found the sender idle; a timer's whole-millisecond sleeps: " + reference + " µs");
        assertTrue(ours < reference, "median start delay " + ours + " µs, against " + reference
                + " µs for a timer's whole-millisecond sleeps on another thread at the same time");
    }
}
