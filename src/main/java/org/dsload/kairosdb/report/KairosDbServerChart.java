package org.dsload.kairosdb.report;

import org.dsload.gauges.ServerChart;

/** The KairosDB servers' gauges charted beside the client's figures ({@link KairosDbServerSection#CHART}). */
public final class KairosDbServerChart extends ServerChart {
    public KairosDbServerChart() {
        super(KairosDbServerSection.CHART, 300);
    }
}
