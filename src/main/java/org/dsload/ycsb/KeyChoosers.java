package org.dsload.ycsb;

import java.util.random.RandomGenerator;

/** The request distributions of YCSB's CoreWorkload. */
public final class KeyChoosers {
    /** YCSB's scrambled zipfian draws ranks among 10^10 items, whose zeta is known ahead. */
    static final long SCRAMBLED_ITEMS = 10_000_000_000L;
    static final double SCRAMBLED_ZETAN = 26.46902820178302;

    private KeyChoosers() {
    }

    /** Every record in [min, max] equally likely. */
    public static KeyChooser uniform(long min, long max) {
        long span = max - min + 1;
        return random -> min + random.nextLong(span);
    }

    /**
     * Zipfian popularity scattered over [min, max]: ranks drawn over a huge item count, hashed, and
     * taken modulo the record count, so popular records are spread across the key space rather
     * than clustered at its start.
     */
    public static KeyChooser scrambledZipfian(long min, long max) {
        Zipfian ranks = new Zipfian(0, SCRAMBLED_ITEMS, Zipfian.CONSTANT, SCRAMBLED_ZETAN);
        long count = max - min + 1;
        return random -> min + Fnv.hash64(ranks.next(random)) % count;
    }

    /** The most recently inserted records most popular, zipfian by age. */
    public static KeyChooser latest(AcknowledgedCounter inserted) {
        Zipfian ages = new Zipfian(0, Math.max(1, inserted.lastValue()) - 1);
        return random -> {
            long newest = inserted.lastValue();
            return newest - ages.next(random, Math.max(1, newest));
        };
    }

    /** A hot set (the first fraction of the records) receiving a given fraction of the operations. */
    public static KeyChooser hotspot(long min, long max, double hotSetFraction, double hotOperationFraction) {
        long span = max - min + 1;
        long hot = (long) (span * hotSetFraction);
        long cold = span - hot;
        return random -> {
            boolean toHot = hot > 0 && (cold == 0 || random.nextDouble() < hotOperationFraction);
            return toHot ? min + random.nextLong(hot) : min + hot + random.nextLong(cold);
        };
    }

    /** Records in order, wrapping around, shared by all threads. */
    public static KeyChooser sequential(long min, long max) {
        java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
        long span = max - min + 1;
        return random -> min + Math.floorMod(next.getAndIncrement(), span);
    }
}
