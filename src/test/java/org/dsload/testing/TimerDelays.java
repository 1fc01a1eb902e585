package org.dsload.testing;

import java.util.Arrays;

/** How late a JMeter timer's whole-millisecond sleep starts a sample, measured on this machine just now. */
public final class TimerDelays {
    private TimerDelays() {
    }

    public static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
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
}
