package org.dsload.influxdb;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

import org.apache.jmeter.samplers.SampleResult;

/**
 * The rows of dsload InfluxDB Write that their Connection counted for its own server gauges, so
 * that a dsload InfluxDB Gauges element in their scope does not count them a second time. Rows
 * are held weakly (by identity: results do not define equality), so a plan without that element
 * keeps none.
 */
final class ConnectionCountedRows {
    private static final Set<SampleResult> COUNTED = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    private ConnectionCountedRows() {
    }

    static void add(SampleResult row) {
        COUNTED.add(row);
    }

    static boolean contains(SampleResult row) {
        return COUNTED.contains(row);
    }
}
