package org.dsload.influxdb;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.samplers.SampleResult;

/**
 * The rows of dsload InfluxDB Write that their Connection counted for its own server gauges, so
 * that a dsload InfluxDB Gauges element in their scope does not count them a second time. Rows
 * are held weakly (by identity: results do not define equality), and only while such an element
 * counts: a plan without one pays no shared set per write.
 */
final class ConnectionCountedRows {
    private static final Set<SampleResult> COUNTED = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    /** InfluxDB Gauges elements counting writes in this JVM now. */
    private static final AtomicInteger WATCHERS = new AtomicInteger();

    private ConnectionCountedRows() {
    }

    /** An InfluxDB Gauges element starts counting writes: rows its connections count are kept from now. */
    static void watch() {
        WATCHERS.incrementAndGet();
    }

    /** It stops counting. */
    static void unwatch() {
        WATCHERS.decrementAndGet();
    }

    static void add(SampleResult row) {
        if (WATCHERS.get() > 0) {
            COUNTED.add(row);
        }
    }

    static boolean contains(SampleResult row) {
        return COUNTED.contains(row);
    }
}
