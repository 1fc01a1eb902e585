package org.dsload.zookeeper.report;

import java.util.List;

import org.dsload.gauges.GaugeChart.Panel;
import org.dsload.gauges.GaugeChart.Series;
import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.ServerChart;

/**
 * The ZooKeeper servers' {@code mntr} gauges (zk-mntr.tsv) charted beside the client's figures:
 * packets received, average and largest latency, outstanding requests (S4: above 300 came before
 * instability), znodes and watches, connections.
 */
public final class ZooKeeperServerChart extends ServerChart {
    /** zk-mntr.tsv as the chart reads it (the file has no state or note column; its header names the gauges). */
    static final GaugeFile FILE = new GaugeFile("ZooKeeper", ZooKeeperServerSection.FILE, "zk-sent.tsv", List.of());
    public static final GaugeChart CHART = new GaugeChart("ZooKeeper server", "chart-zookeeper-server.png", FILE,
            List.of(Series.perSecond("packets received", "zk_packets_received")),
            List.of(Series.level("avg latency (largest server)", "zk_avg_latency"),
                    Series.level("max latency (largest server)", "zk_max_latency")),
            List.of(new Panel("outstanding requests", "requests",
                    List.of(Series.level("outstanding (largest server)", "zk_outstanding_requests"))),
                    new Panel("znodes and watches", "count", List.of(Series.level("znodes", "zk_znode_count"),
                            Series.level("watches", "zk_watch_count"))),
                    new Panel("connections", "connections",
                            List.of(Series.total("connections", "zk_num_alive_connections")))));

    public ZooKeeperServerChart() {
        super(CHART, 500);
    }
}
