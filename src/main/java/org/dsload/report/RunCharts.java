package org.dsload.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.HdrHistogram.AbstractHistogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of a run, second by second: requests (and the arrival schedule's target),
 * latency p50/p99 raw and from the intended start, the share of failed requests, and the CPU of
 * every engine of the generator. Drawn from the JTL and the generator's CSV files after the run.
 * The windows of a fault schedule are shaded on the load charts. Then every registered
 * {@link RunChart} the run has material for (each store whose server gauges were recorded gets a
 * chart of its own beside the client's throughput and p99).
 */
public final class RunCharts {
    public static final String THROUGHPUT = "chart-throughput.png";
    public static final String LATENCY = "chart-latency.png";
    public static final String ERRORS = "chart-errors.png";
    public static final String GENERATOR_CPU = "chart-generator-cpu.png";
    /** Colours far apart in hue, for series that must be told apart (Tableau's ten). */
    static final Color[] DISTINCT = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22),
        new Color(0x17becf)};
    static final BasicStroke DASHES = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 420;

    private RunCharts() {
    }

    /**
     * Writes the charts into {@code outDir}.
     *
     * @return the files written (none when the JTL has no samples)
     */
    public static List<Path> write(Path jtl, Path runDir, Path outDir) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        TimeSeries series = TimeSeries.of(jtl, runDir);
        List<Path> written = new ArrayList<>();
        if (series.isEmpty()) {
            return written;
        }
        Files.createDirectories(outDir);
        long origin = series.firstSecond();
        int n = series.seconds().size();
        double[] x = new double[n];
        double[] requests = new double[n];
        double[] errors = new double[n];
        double[] p50 = new double[n];
        double[] p99 = new double[n];
        double[] cp50 = new double[n];
        double[] cp99 = new double[n];
        int i = 0;
        for (Map.Entry<Long, TimeSeries.Second> e : series.seconds().entrySet()) {
            TimeSeries.Second s = e.getValue();
            x[i] = e.getKey() - origin;
            requests[i] = s.requests;
            errors[i] = s.requests == 0 ? 0 : 100.0 * s.failures / s.requests;
            p50[i] = millis(percentile(s.raw, 50));
            p99[i] = millis(percentile(s.raw, 99));
            cp50[i] = millis(percentile(s.corrected, 50));
            cp99[i] = millis(percentile(s.corrected, 99));
            i++;
        }

        List<FaultWindows.Window> faults = FaultWindows.of(series.faultMarkers(), runDir);
        double lastX = x[n - 1] + 1;

        XYChart throughput = chart("Requests per second (by start)", "requests/s");
        line(throughput, "requests", x, requests);
        if (series.targetRate() > 0) {
            dashed(throughput, "target rate", new double[] {x[0], x[n - 1]},
                    new double[] {series.targetRate(), series.targetRate()});
        }
        shade(throughput, faults, origin, lastX);
        written.add(save(throughput, outDir.resolve(THROUGHPUT)));

        XYChart latency = chart(series.histograms() ? "Latency per second (log scale; from the engines' interval logs)"
                : "Latency per second (log scale)", "ms");
        latency.getStyler().setYAxisLogarithmic(true);
        line(latency, "p50", x, floor(p50));
        line(latency, "p99", x, floor(p99));
        if (series.scheduled()) {
            dashed(latency, "p50 from intended start", x, floor(cp50));
            dashed(latency, "p99 from intended start", x, floor(cp99));
        }
        shade(latency, faults, origin, lastX);
        written.add(save(latency, outDir.resolve(LATENCY)));

        XYChart failures = chart("Failed requests per second", "% of requests");
        failures.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
        line(failures, "failed", x, errors);
        shade(failures, faults, origin, lastX);
        written.add(save(failures, outDir.resolve(ERRORS)));

        List<GeneratorCsv.Engine> engines = GeneratorCsv.read(runDir);
        if (!engines.isEmpty()) {
            XYChart cpu = generatorCpu(engines, origin);
            if (!cpu.getSeriesMap().isEmpty()) {
                written.add(save(cpu, outDir.resolve(GENERATOR_CPU)));
            }
        }
        ChartFrame frame = new ChartFrame(runDir, outDir, origin, x, requests, p99, faults, lastX);
        for (RunChart chart : charts()) {
            chart.write(frame).ifPresent(written::add);
        }
        return written;
    }

    /** The registered charts (META-INF/services), in the order they are drawn. */
    static List<RunChart> charts() {
        List<RunChart> charts = new ArrayList<>();
        ServiceLoader.load(RunChart.class, RunChart.class.getClassLoader()).forEach(charts::add);
        charts.sort(Comparator.comparingInt(RunChart::order).thenComparing(c -> c.getClass().getName()));
        return charts;
    }

    /** Shades each fault window (a window without a recorded revert runs to the end of the chart). */
    static void shade(XYChart chart, List<FaultWindows.Window> faults, long origin, double lastX) {
        for (FaultWindows.Window w : faults) {
            double from = (w.start() - origin * 1000) / 1000.0;
            double to = w.end() < 0 ? lastX : (w.end() - origin * 1000) / 1000.0;
            chart.addAnnotation(new FaultBand(from, Math.max(from, to), "#" + w.number() + " " + w.kind() + " " + w.target()));
        }
    }

    /**
     * Each engine's JVM (solid) and machine (dashed) CPU, every series in a colour of its own: the
     * theme's colours come in close pairs, and a JVM line beside its machine's must not read as one.
     */
    static XYChart generatorCpu(List<GeneratorCsv.Engine> engines, long origin) {
        XYChart cpu = chart("Generator CPU (% of all cores)", "%");
        cpu.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
        int n = 0;
        for (GeneratorCsv.Engine engine : engines) {
            if (cpuSeries(cpu, engine.name() + " JVM", engine.series(GeneratorCsv.PROCESS_CPU), origin, false, n)) {
                n++;
            }
            if (cpuSeries(cpu, engine.name() + " machine", engine.series(GeneratorCsv.SYSTEM_CPU), origin, true, n)) {
                n++;
            }
        }
        return cpu;
    }

    private static boolean cpuSeries(XYChart chart, String name, List<GeneratorCsv.Point> points, long origin,
            boolean dashed, int index) {
        List<GeneratorCsv.Point> valid = points.stream().filter(p -> p.value() >= 0).toList();
        if (valid.isEmpty()) {
            return false;
        }
        double[] x = valid.stream().mapToDouble(p -> p.epochSecond() - origin).toArray();
        double[] y = valid.stream().mapToDouble(GeneratorCsv.Point::value).toArray();
        XYSeries series = line(chart, name, x, y);
        if (dashed) {
            series.setLineStyle(DASHES);
        }
        series.setLineColor(DISTINCT[index % DISTINCT.length]);
        return true;
    }

    static XYChart chart(String title, String yTitle) {
        return chart(title, yTitle, HEIGHT);
    }

    static XYChart chart(String title, String yTitle, int height) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(height).title(title)
                .xAxisTitle("seconds since the first sample").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridLinesColor(new Color(225, 225, 225));
        return chart;
    }

    static XYSeries line(XYChart chart, String name, double[] x, double[] y) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return s;
    }

    static void dashed(XYChart chart, String name, double[] x, double[] y) {
        line(chart, name, x, y).setLineStyle(DASHES);
    }

    static Path save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    private static long percentile(AbstractHistogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p);
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    /** A log axis cannot show 0: an empty or sub-microsecond second is drawn at 1 µs. */
    static double[] floor(double[] values) {
        double[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(0.001, out[i]);
        }
        return out;
    }
}
