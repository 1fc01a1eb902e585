package org.dsload.report;

import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.XYChart;

/**
 * What a {@link RunChart} draws beside: the run's folders, the time axis (seconds from
 * {@code origin}, up to {@code lastX}), the client's requests and p99 in each second, and the fault
 * windows, with the drawing helpers of {@link RunCharts} so that every chart of a run looks alike.
 *
 * @param x        seconds since {@code origin}, one per point of {@code requests} and {@code p99}
 * @param requests the client's requests in each second
 * @param p99      the client's p99 in each second, in milliseconds
 */
public record ChartFrame(Path runDir, Path outDir, long origin, double[] x, double[] requests, double[] p99,
        List<FaultWindows.Window> faults, double lastX) {

    /** An empty panel of the run's charts, {@code height} pixels high. */
    public XYChart panel(String title, String yTitle, int height) {
        return RunCharts.chart(title, yTitle, height);
    }

    public void line(XYChart chart, String name, double[] xs, double[] ys) {
        RunCharts.line(chart, name, xs, ys);
    }

    public void dashed(XYChart chart, String name, double[] xs, double[] ys) {
        RunCharts.dashed(chart, name, xs, ys);
    }

    /** Shades the run's fault windows on the chart. */
    public void shade(XYChart chart) {
        RunCharts.shade(chart, faults, origin, lastX);
    }

    /** The values with zeros raised to what a logarithmic axis can show. */
    public static double[] floor(double[] values) {
        return RunCharts.floor(values);
    }
}
