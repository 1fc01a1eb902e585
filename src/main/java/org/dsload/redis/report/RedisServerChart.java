package org.dsload.redis.report;

import org.dsload.gauges.ServerChart;

/** The Redis servers' gauges charted beside the client's figures ({@link RedisServerSection#CHART}). */
public final class RedisServerChart extends ServerChart {
    public RedisServerChart() {
        super(RedisServerSection.CHART, 100);
    }
}
