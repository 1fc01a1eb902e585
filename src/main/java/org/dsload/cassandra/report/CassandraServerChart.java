package org.dsload.cassandra.report;

import org.dsload.gauges.ServerChart;

/** The Cassandra servers' gauges charted beside the client's figures ({@link CassandraServerSection#CHART}). */
public final class CassandraServerChart extends ServerChart {
    public CassandraServerChart() {
        super(CassandraServerSection.CHART, 200);
    }
}
