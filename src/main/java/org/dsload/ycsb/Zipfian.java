package org.dsload.ycsb;

import java.util.random.RandomGenerator;

/**
 * Zipfian ranks over [min, max], item 0 the most popular, by the method of Gray et al. ("Quickly
 * generating billion-record synthetic databases", SIGMOD 1994) that YCSB uses, with the same
 * constant (0.99) and the same incremental update when the number of items grows (records
 * inserted during a run under the latest distribution).
 */
public final class Zipfian {
    public static final double CONSTANT = 0.99;

    private final long base;
    private final long initialItems;
    private final double theta;
    private final double alpha;
    private final double zeta2theta;
    private volatile State state;

    private record State(long items, double zetan, double eta) {
    }

    public Zipfian(long min, long max) {
        this(min, max, CONSTANT, zeta(0, max - min + 1, CONSTANT, 0));
    }

    /** With the zeta of the item count already known (it costs one power per item to compute). */
    public Zipfian(long min, long max, double theta, double zetan) {
        if (max < min) {
            throw new IllegalArgumentException("zipfian range [" + min + ", " + max + "] is empty");
        }
        this.base = min;
        this.initialItems = max - min + 1;
        this.theta = theta;
        this.alpha = 1.0 / (1.0 - theta);
        this.zeta2theta = zeta(0, 2, theta, 0);
        this.state = new State(initialItems, zetan, eta(zetan));
    }

    static double zeta(long from, long to, double theta, double initialSum) {
        double sum = initialSum;
        for (long i = from; i < to; i++) {
            sum += 1 / Math.pow(i + 1, theta);
        }
        return sum;
    }

    /** YCSB keeps the first item count in this term when the count grows; so does this, to draw alike. */
    private double eta(double zetan) {
        return (1 - Math.pow(2.0 / initialItems, 1 - theta)) / (1 - zeta2theta / zetan);
    }

    public long next(RandomGenerator random) {
        return next(random, state.items);
    }

    /** A rank among the first {@code items} items; a larger count than before extends zeta once. */
    public long next(RandomGenerator random, long items) {
        State s = state;
        if (items > s.items) {
            s = grow(items);
        }
        double u = random.nextDouble();
        double uz = u * s.zetan;
        if (uz < 1.0) {
            return base;
        }
        if (uz < 1.0 + Math.pow(0.5, theta)) {
            return base + 1;
        }
        return base + (long) (items * Math.pow(s.eta * u - s.eta + 1, alpha));
    }

    private synchronized State grow(long items) {
        State s = state;
        if (items > s.items) {
            double zetan = zeta(s.items, items, theta, s.zetan);
            s = new State(items, zetan, eta(zetan));
            state = s;
        }
        return s;
    }
}
