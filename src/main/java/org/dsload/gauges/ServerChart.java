package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import org.dsload.core.format.GaugeTable;
import org.dsload.report.ChartFrame;
import org.dsload.report.RunChart;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A store's server gauges charted beside the client's figures, one PNG: the client's requests per
 * second and p99 with the server's own figures drawn over them, then the store's panels of gauges,
 * all on the same time axis with the fault windows shaded. Nothing when no engine recorded the
 * store. Each store registers a subclass with its {@link GaugeChart} as a {@link RunChart}.
 */
public abstract class ServerChart implements RunChart {
    private static final int HEIGHT = 300;
    private final GaugeChart spec;
    private final int order;

    protected ServerChart(GaugeChart spec, int order) {
        this.spec = spec;
        this.order = order;
    }

    @Override
    public final int order() {
        return order;
    }

    @Override
    public final Optional<Path> write(ChartFrame frame) throws IOException {
        List<GaugeTable.Row> rows = GaugeRows.read(frame.runDir(), spec.spec());
        if (rows.stream().noneMatch(GaugeTable.Row::ok)) {
            return Optional.empty();
        }
        List<XYChart> panels = new ArrayList<>();
        long origin = frame.origin();

        XYChart throughput = frame.panel(spec.title() + ": requests per second", "per second", HEIGHT);
        frame.line(throughput, "client requests", frame.x(), frame.requests());
        addSeries(frame, throughput, rows, spec.besideThroughput());
        panels.add(throughput);

        XYChart latency = frame.panel(spec.title() + ": latency (log scale)", "ms", HEIGHT);
        latency.getStyler().setYAxisLogarithmic(true);
        frame.line(latency, "client p99", frame.x(), ChartFrame.floor(frame.p99()));
        addSeries(frame, latency, rows, spec.besideLatency());
        panels.add(latency);

        for (GaugeChart.Panel p : spec.panels()) {
            XYChart chart = frame.panel(spec.title() + ": " + p.title(), p.yTitle(), HEIGHT);
            for (GaugeChart.Series s : p.series()) {
                TreeMap<Long, Double> points = GaugeChart.points(rows, s);
                if (!points.isEmpty()) {
                    frame.line(chart, s.name(), xs(points, origin), ys(points, false));
                    markIfShort(chart, s.name(), points);
                }
            }
            if (!chart.getSeriesMap().isEmpty()) {
                panels.add(chart);
            }
        }
        for (XYChart chart : panels) {
            frame.shade(chart);
        }
        Path file = frame.outDir().resolve(spec.png());
        BitmapEncoder.saveBitmap(panels, panels.size(), 1, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return Optional.of(file);
    }

    /** Server series drawn dashed over a client series; a log axis gets no zeros. */
    private static void addSeries(ChartFrame frame, XYChart chart, List<GaugeTable.Row> rows, List<GaugeChart.Series> series) {
        boolean log = chart.getStyler().isYAxisLogarithmic();
        for (GaugeChart.Series s : series) {
            TreeMap<Long, Double> points = GaugeChart.points(rows, s);
            if (!points.isEmpty()) {
                frame.dashed(chart, s.name(), xs(points, frame.origin()), ys(points, log));
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
