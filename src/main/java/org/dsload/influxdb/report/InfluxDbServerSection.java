package org.dsload.influxdb.report;

import java.util.List;
import java.util.Map;

import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeChart.Panel;
import org.dsload.gauges.GaugeChart.Series;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;
import org.dsload.gauges.ServerGaugeSection;

/**
 * The InfluxDB servers' side of a run ({@value #NAME}: /debug/vars each second): write requests
 * and points, the failures and drops of S2's back-pressure, cache size and compactions, and the
 * samplers' writes and points checked against the server's counts.
 */
public final class InfluxDbServerSection extends ServerGaugeSection {

    @Override
    public int order() {
        return 930;
    }
    public static final String NAME = "influxdb-vars.tsv";
    static final String WRITE_REQUESTS = "write_requests";
    static final String POINTS_OK = "points_written_ok";
    public static final GaugeFile FILE = new GaugeFile("InfluxDB", NAME, "influxdb-sent.tsv", List.of("http_requests",
            WRITE_REQUESTS, "query_requests", POINTS_OK, "points_written_fail", "points_written_dropped",
            "client_errors", "server_errors", "write_requests_active", "write_bytes", "write_duration_ns",
            "auth_failures", "point_requests", "write_drop", "write_error", "write_timeout", "cache_bytes",
            "cache_write_dropped", "cache_write_errors", "cache_snapshots", "compactions", "compactions_active",
            "compaction_queue", "compaction_errors", "heap_bytes", "goroutines", "series"));
    public static final GaugeChart CHART = new GaugeChart("InfluxDB server", "chart-influxdb-server.png", FILE,
            List.of(Series.perSecond("server write requests", WRITE_REQUESTS),
                    Series.perSecond("points written", POINTS_OK)),
            List.of(),
            List.of(new Panel("write failures", "per second", List.of(
                    Series.perSecond("points failed", "points_written_fail"),
                    Series.perSecond("points dropped", "points_written_dropped"),
                    Series.perSecond("server errors (5xx)", "server_errors"))),
                    new Panel("cache", "MB", List.of(Series.total("cache", "cache_bytes").scaled(1e6))),
                    new Panel("compactions", "compactions", List.of(Series.total("active", "compactions_active"),
                            Series.total("queued", "compaction_queue")))));
    private static final List<GaugeText.Column> COLUMNS = List.of(
            GaugeText.rate("writes/s", WRITE_REQUESTS),
            GaugeText.rate("points/s", POINTS_OK),
            GaugeText.level("writes active", "write_requests_active"),
            GaugeText.increase("points failed", "points_written_fail"),
            GaugeText.increase("points dropped", "points_written_dropped"),
            GaugeText.increase("5xx", "server_errors"),
            GaugeText.increase("write drops", "write_drop"),
            GaugeText.increase("write errors", "write_error"),
            GaugeText.level("cache MB", "cache_bytes", 1e6),
            GaugeText.increase("compactions", "compactions"),
            GaugeText.level("compacting", "compactions_active"),
            GaugeText.level("compaction queue", "compaction_queue"),
            GaugeText.level("heap MB", "heap_bytes", 1e6),
            GaugeText.level("series", "series"));

    public InfluxDbServerSection() {
        super(FILE, "InfluxDB server gauges (/debug/vars, every second; min-max over the run)",
                "GET /debug/vars on a client of its own per server");
    }

    @Override
    protected void body(Map<String, NodeGauges> nodes, Map<String, Long> sent, StringBuilder out) {
        out.append(GaugeText.table(nodes.values(), COLUMNS));
        long requests = sent.getOrDefault("write_requests", 0L);
        if (requests > 0) {
            out.append(GaugeText.crossCheck(nodes, requests, List.of(WRITE_REQUESTS),
                    "write requests (httpd writeReq)"));
            // a write that timed out may have been stored once the server ran again: its points may be counted too
            out.append(GaugeText.crossCheck(nodes, sent.getOrDefault("points", 0L),
                    sent.getOrDefault("unanswered_points", 0L), List.of(POINTS_OK),
                    "points of accepted writes (httpd pointsWrittenOK)"));
        }
    }
}
