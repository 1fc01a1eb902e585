package org.dsload.gauges;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.format.GaugeTable;

/**
 * How a store's server gauges are charted beside the client's figures: series drawn over the
 * client's requests per second, series drawn over its p99 latency, and panels of their own.
 *
 * @param title             the store's name on the chart ("Redis server")
 * @param png               the chart's file name
 * @param spec              the gauge file the series come from
 * @param besideThroughput  server series in requests (or points) per second
 * @param besideLatency     server series in milliseconds
 * @param panels            further panels, one chart each
 */
public record GaugeChart(String title, String png, GaugeFile spec, List<Series> besideThroughput,
        List<Series> besideLatency, List<Panel> panels) {

    /** How one column becomes one line: its value, or its increase per second; summed or the largest over servers. */
    public record Series(String name, String column, boolean rate, double unit, boolean sum) {
        public static Series level(String name, String column) {
            return new Series(name, column, false, 1, false);
        }

        public static Series total(String name, String column) {
            return new Series(name, column, false, 1, true);
        }

        public static Series perSecond(String name, String column) {
            return new Series(name, column, true, 1, true);
        }

        public Series scaled(double by) {
            return new Series(name, column, rate, by, sum);
        }
    }

    /** A chart of its own below the client's two. */
    public record Panel(String title, String yTitle, List<Series> series) {
    }

    /**
     * The series' points, one per epoch second: each server's value in that second (the largest
     * when several engines read it), then summed or the largest over servers.
     */
    public static TreeMap<Long, Double> points(List<GaugeTable.Row> rows, Series series) {
        Map<String, GaugeTable.Row> previous = new HashMap<>();
        Map<Long, Map<String, Double>> bySecond = new TreeMap<>();
        for (GaugeTable.Row row : rows) {
            if (!row.ok()) {
                continue;
            }
            double value = row.number(series.column());
            if (series.rate()) {
                GaugeTable.Row before = previous.put(row.engine() + "\t" + row.node(), row);
                if (before == null) {
                    continue;
                }
                double seconds = (row.epochMillis() - before.epochMillis()) / 1000.0;
                double increase = value - before.number(series.column());
                value = seconds >= 0.5 && increase >= 0 ? increase / seconds : Double.NaN;
            }
            if (!Double.isNaN(value)) {
                bySecond.computeIfAbsent(Math.floorDiv(row.epochMillis(), 1000), k -> new HashMap<>())
                        .merge(row.node(), value / series.unit(), Math::max);
            }
        }
        TreeMap<Long, Double> points = new TreeMap<>();
        bySecond.forEach((second, nodes) -> points.put(second, nodes.values().stream()
                .reduce(series.sum() ? Double::sum : Math::max).orElse(0.0)));
        return points;
    }
}
