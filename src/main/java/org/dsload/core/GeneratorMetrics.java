package org.dsload.core;

import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

/**
 * The load generator's own figures, one registry per JVM (the master, or each slave): bytes
 * moved by dsload samplers and connections held by dsload clients. S3's lesson is that a
 * generator's own network or pool limit passes for the server's unless it is shown next to the
 * results; reporters read this registry.
 */
public final class GeneratorMetrics {
    public static final String BYTES_SENT = "dsload.bytes.sent";
    public static final String BYTES_RECEIVED = "dsload.bytes.received";
    public static final String CONNECTIONS_PREFIX = "dsload.connections.";
    /** Scheduled arrivals that started late (see {@link IntendedStart}) or were dropped. */
    public static final String ARRIVALS_LATE = "dsload.arrivals.late";
    public static final String ARRIVALS_DROPPED = "dsload.arrivals.dropped";
    /** Scheduled arrivals neither sent nor dropped: taken by no thread before the schedule's end (every thread busy). */
    public static final String ARRIVALS_MISSED = "dsload.arrivals.missed";
    /**
     * The same two for the schedules of a plan's warm-up (labels ending in {@code " (warm-up)"}), kept apart: a
     * cold JVM's first seconds are what a warm-up is there to absorb, and the run's verdicts judge the measured
     * arrivals only.
     */
    public static final String WARM_UP_ARRIVALS_DROPPED = "dsload.arrivals.warm_up.dropped";
    public static final String WARM_UP_ARRIVALS_MISSED = "dsload.arrivals.warm_up.missed";
    /** Arrivals per second the engine's schedules (dsload Constant Arrival Rate) aim at, all together. */
    public static final String ARRIVALS_TARGET_RATE = "dsload.arrivals.target_rate";
    /** Requests sent and not yet answered by samplers that keep several in flight per thread. */
    public static final String REQUESTS_IN_FLIGHT = "dsload.requests.in_flight";

    private static final MetricRegistry REGISTRY = new MetricRegistry();
    private static final Counter SENT = REGISTRY.counter(BYTES_SENT);
    private static final Counter RECEIVED = REGISTRY.counter(BYTES_RECEIVED);
    private static final Counter LATE = REGISTRY.counter(ARRIVALS_LATE);
    private static final Counter DROPPED = REGISTRY.counter(ARRIVALS_DROPPED);
    private static final Counter MISSED = REGISTRY.counter(ARRIVALS_MISSED);
    private static final Counter WARM_UP_DROPPED = REGISTRY.counter(WARM_UP_ARRIVALS_DROPPED);
    private static final Counter WARM_UP_MISSED = REGISTRY.counter(WARM_UP_ARRIVALS_MISSED);
    private static final Counter IN_FLIGHT = REGISTRY.counter(REQUESTS_IN_FLIGHT);

    private GeneratorMetrics() {
    }

    public static MetricRegistry registry() {
        return REGISTRY;
    }

    public static void bytes(long sent, long received) {
        SENT.inc(sent);
        RECEIVED.inc(received);
    }

    public static void arrivalLate() {
        LATE.inc();
    }

    public static void arrivalsDropped(long count) {
        DROPPED.inc(count);
    }

    /** Arrivals dropped by a schedule, a warm-up's ({@code warmUp}) counted apart. */
    public static void arrivalsDropped(long count, boolean warmUp) {
        (warmUp ? WARM_UP_DROPPED : DROPPED).inc(count);
    }

    /** Arrivals of a schedule that no thread took before its end, a warm-up's ({@code warmUp}) counted apart. */
    public static void arrivalsMissed(long count, boolean warmUp) {
        (warmUp ? WARM_UP_MISSED : MISSED).inc(count);
    }

    /** A request of an in-flight window was sent (+1) or ended (-1). */
    public static void requestsInFlight(int change) {
        IN_FLIGHT.inc(change);
    }

    /** Publishes the arrivals per second the engine's schedules aim at, under {@value #ARRIVALS_TARGET_RATE}. */
    public static void targetRate(DoubleSupplier perSecond) {
        REGISTRY.remove(ARRIVALS_TARGET_RATE);
        REGISTRY.register(ARRIVALS_TARGET_RATE, (Gauge<Double>) perSecond::getAsDouble);
    }

    /** Publishes the number of open connections of a client under {@code dsload.connections.<name>}. */
    public static void connections(String name, IntSupplier open) {
        String metric = CONNECTIONS_PREFIX + name;
        REGISTRY.remove(metric);
        REGISTRY.register(metric, (Gauge<Integer>) open::getAsInt);
    }

    public static void forgetConnections(String name) {
        REGISTRY.remove(CONNECTIONS_PREFIX + name);
    }
}
