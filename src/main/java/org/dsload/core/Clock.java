package org.dsload.core;

/**
 * Instants of {@link System#nanoTime()} as epoch time, from one reading of both clocks, so that
 * requests timed on the nanoTime clock (on any thread, callbacks included) are placed in results
 * files consistently with each other.
 */
public final class Clock {
    private static final long BASE_NANOS;
    private static final long BASE_EPOCH_MICROS;

    static {
        long before = System.nanoTime();
        long millis = System.currentTimeMillis();
        long after = System.nanoTime();
        BASE_NANOS = before + (after - before) / 2;
        BASE_EPOCH_MICROS = millis * 1000;
    }

    private Clock() {
    }

    public static long epochMicros(long nanos) {
        return BASE_EPOCH_MICROS + Math.floorDiv(nanos - BASE_NANOS, 1000);
    }

    public static long epochMillis(long nanos) {
        return Math.floorDiv(epochMicros(nanos), 1000);
    }
}
