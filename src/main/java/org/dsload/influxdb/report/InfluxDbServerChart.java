package org.dsload.influxdb.report;

import org.dsload.gauges.ServerChart;

/** The InfluxDB servers' gauges charted beside the client's figures ({@link InfluxDbServerSection#CHART}). */
public final class InfluxDbServerChart extends ServerChart {
    public InfluxDbServerChart() {
        super(InfluxDbServerSection.CHART, 400);
    }
}
