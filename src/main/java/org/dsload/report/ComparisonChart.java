package org.dsload.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * The latency percentile curves of two compared runs on one PNG chart: per label, run A solid and
 * run B dashed in the label's colour, the percentile by its nines, log10(1 / (1 - p)) (so p90, p99,
 * p99.9 stand equally apart), up to what the label's requests can show, the latency on a log axis.
 */
public final class ComparisonChart {
    public static final String FILE = "compare-latency.png";
    private static final int POINTS = 60;

    private ComparisonChart() {
    }

    public static Path write(RunComparison comparison, Path outDir) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        Files.createDirectories(outDir);
        XYChart chart = RunCharts.chart("Latency by percentile: A solid, B dashed (log scales)", "ms");
        chart.setXAxisTitle("percentile, by its nines: 1 = p90, 2 = p99, 3 = p99.9, 4 = p99.99");
        chart.getStyler().setYAxisLogarithmic(true);
        int n = 0;
        for (RunComparison.Label label : comparison.labels()) {
            java.awt.Color colour = RunCharts.DISTINCT[n++ % RunCharts.DISTINCT.length];
            curve(chart, label.label() + " A", comparison.a().summary().label(label.label()).latencies(), false)
                    .setLineColor(colour);
            curve(chart, label.label() + " B", comparison.b().summary().label(label.label()).latencies(), true)
                    .setLineColor(colour);
        }
        return RunCharts.save(chart, outDir.resolve(FILE));
    }

    private static XYSeries curve(XYChart chart, String name, Latencies latencies, boolean dashed) {
        // x = log10(1 / (1 - p)): 0 at p0, 1 at p90, 2 at p99; no further than one request in the tail
        double top = Math.max(10, Math.min(latencies.count(), 1_000_000));
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i <= POINTS; i++) {
            double x = Math.pow(top, i / (double) POINTS);
            double p = 100 * (1 - 1 / x);
            xs.add(Math.log10(x));
            ys.add(Math.max(0.001, latencies.percentile(p) / 1000.0));
        }
        double[] x = xs.stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = ys.stream().mapToDouble(Double::doubleValue).toArray();
        XYSeries series = RunCharts.line(chart, name, x, y);
        if (dashed) {
            series.setLineStyle(RunCharts.DASHES);
        }
        return series;
    }
}
