package org.dsload.testing;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** How late a JMeter timer's whole-millisecond sleep starts a sample, measured on this machine just now. */
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
    public static long[] whenIdle(List<org.dsload.core.Completion> requests, int places) {
        List<org.dsload.core.Completion> due = requests.stream()
                .sorted(java.util.Comparator.comparingLong(org.dsload.core.Completion::intendedNanos)).toList();
        java.util.stream.LongStream.Builder judged = java.util.stream.LongStream.builder();
        for (int i = 1; i < due.size(); i++) {
            long at = due.get(i).intendedNanos();
            long outstanding = due.stream().filter(o -> o.sendNanos() <= at && o.endNanos() > at).count();
            if (due.get(i - 1).sendNanos() <= at && outstanding < places) {
                judged.add(due.get(i).delayMicros());
            }
        }
        return judged.build().toArray();
    }
}
