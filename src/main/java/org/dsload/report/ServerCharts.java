package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeRows;
import org.dsload.influxdb.report.InfluxDbServerSection;
import org.dsload.kairosdb.report.KairosDbServerSection;
import org.dsload.redis.report.RedisServerSection;
import org.dsload.zookeeper.report.ZooKeeperServerChart;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per store whose server gauges a run recorded: the client's requests per second and p99
 * with the server's own figures drawn over them, then panels of server gauges, all on the same
 * time axis with the fault windows shaded.
 */
final class ServerCharts {
    /** The stores' charts, in the order they are drawn. */
    static final List<GaugeChart> CHARTS = List.of(RedisServerSection.CHART, CassandraServerSection.CHART,
            KairosDbServerSection.CHART, InfluxDbServerSection.CHART, ZooKeeperServerChart.CHART);
    private static final int HEIGHT = 300;

    private ServerCharts() {
    }

    static List<Path> write(Path runDir, Path outDir, long origin, double[] x, double[] requests, double[] p99,
            List<FaultWindows.Window> faults, double lastX) throws IOException {
        List<Path> written = new ArrayList<>();
        for (GaugeChart spec : CHARTS) {
            List<GaugeRows.Row> rows = GaugeRows.read(runDir, spec.spec());
            if (rows.stream().noneMatch(GaugeRows.Row::ok)) {
                continue;
            }
            List<XYChart> panels = new ArrayList<>();

            XYChart throughput = panel(spec.title() + ": requests per second", "per second");
            RunCharts.line(throughput, "client requests", x, requests);
            addSeries(throughput, rows, spec.besideThroughput(), origin);
            panels.add(throughput);

            XYChart latency = panel(spec.title() + ": latency (log scale)", "ms");
            latency.getStyler().setYAxisLogarithmic(true);
            RunCharts.line(latency, "client p99", x, RunCharts.floor(p99));
            addSeries(latency, rows, spec.besideLatency(), origin);
            panels.add(latency);

            for (GaugeChart.Panel p : spec.panels()) {
                XYChart chart = panel(spec.title() + ": " + p.title(), p.yTitle());
                for (GaugeChart.Series s : p.series()) {
                    TreeMap<Long, Double> points = GaugeChart.points(rows, s);
                    if (!points.isEmpty()) {
                        RunCharts.line(chart, s.name(), xs(points, origin), ys(points, false));
                        markIfShort(chart, s.name(), points);
                    }
                }
                if (!chart.getSeriesMap().isEmpty()) {
                    panels.add(chart);
                }
            }
            for (XYChart chart : panels) {
                RunCharts.shade(chart, faults, origin, lastX);
            }
            Path file = outDir.resolve(spec.png());
            BitmapEncoder.saveBitmap(panels, panels.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            written.add(file);
        }
        return written;
    }

    private static XYChart panel(String title, String yTitle) {
        return RunCharts.chart(title, yTitle, HEIGHT);
    }

    /** Server series drawn dashed over a client series; a log axis gets no zeros. */
    private static void addSeries(XYChart chart, List<GaugeRows.Row> rows, List<GaugeChart.Series> series, long origin) {
        boolean log = chart.getStyler().isYAxisLogarithmic();
        for (GaugeChart.Series s : series) {
            TreeMap<Long, Double> points = GaugeChart.points(rows, s);
            if (!points.isEmpty()) {
                RunCharts.dashed(chart, s.name(), xs(points, origin), ys(points, log));
                markIfShort(chart, s.name(), points);
            }
        }
    }

    /** A line of one or two points (a short run, a reporter that reports once a minute) would not show. */
    private static void markIfShort(XYChart chart, String series, TreeMap<Long, Double> points) {
        if (points.size() <= 2) {
            chart.getSeriesMap().get(series).setMarker(SeriesMarkers.CIRCLE);
        }
    }

    private static double[] xs(TreeMap<Long, Double> points, long origin) {
        return points.keySet().stream().mapToDouble(second -> second - origin).toArray();
    }

    private static double[] ys(TreeMap<Long, Double> points, boolean logAxis) {
        return points.values().stream().mapToDouble(v -> logAxis ? Math.max(0.001, v) : v).toArray();
    }
}
