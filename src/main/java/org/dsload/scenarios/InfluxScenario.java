package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.InfluxDb;

/**
 * S2: InfluxDB writes at a constant rate, against influxd of Debian's influxdb package started
 * here; skipped, saying why, on a machine without it.
 */
final class InfluxScenario implements Scenario {

    @Override
    public String name() {
        return "influx";
    }

    @Override
    public String plan() {
        return "influxdb-write.jmx";
    }

    /** S2's rate: writes per second of all engines together. */
    static final int RATE = 5000;

    @Override
    public Map<String, String> mainJobProperties() {
        return mainJobProperties(1);
    }

    /**
     * The plan's rate is each engine's: the engines share S2's 5,000/s. The rest is the plan's defaults:
     * 2 threads per engine whose places in flight follow the engine's rate, and the measured 20 s after
     * 10 s of warm-up writes at the same rate, reported apart, so a JVM's first interpreted seconds do
     * not stand in S2's figures.
     */
    @Override
    public Map<String, String> mainJobProperties(int engines) {
        return Map.of("rate", Integer.toString(RATE / engines), "duration", "20");
    }

    @Override
    public Target start() {
        if (InfluxDb.binary().isEmpty()) {
            throw new Unavailable(InfluxDb.missingMessage());
        }
        InfluxDb influx = InfluxDb.start();
        return new Target() {
            @Override
            public Map<String, String> properties() {
                return Map.of("influx_host", influx.host(), "influx_port", Integer.toString(influx.port()));
            }

            @Override
            public void close() {
                influx.close();
            }
        };
    }
}
