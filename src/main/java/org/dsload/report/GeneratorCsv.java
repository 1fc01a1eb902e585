package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.dsload.core.format.RunFiles;

/**
 * The generator's own figures a run left in {@code <run>/generator/<engine>/<figure>.csv}: one
 * file per figure, written each second by Dropwizard's CSV reporter ({@code t,value} for gauges,
 * {@code t,count} for counters, t in epoch seconds).
 */
public final class GeneratorCsv {
    public static final String FOLDER = "generator";
    public static final String PROCESS_CPU = "jvm.cpu.process";
    public static final String SYSTEM_CPU = "jvm.cpu.system";
    /** The share of the machine's CPU its hypervisor took (steal), % of all cores; -1 where not accounted. */
    public static final String STOLEN_CPU = "jvm.cpu.stolen";
    public static final String CORES = "jvm.cpu.cores";
    public static final String HEAP_USED = "jvm.heap.used";
    public static final String GC_TIME = "jvm.gc.time";
    public static final String JVM_THREADS = "jvm.threads";
    public static final String JMETER_THREADS = "jmeter.threads";
    public static final String CONNECTIONS = "dsload.connections.total";
    public static final String BYTES_SENT = "dsload.bytes.sent";
    public static final String BYTES_RECEIVED = "dsload.bytes.received";
    public static final String ARRIVALS_LATE = "dsload.arrivals.late";
    public static final String ARRIVALS_DROPPED = "dsload.arrivals.dropped";
    public static final String ARRIVALS_MISSED = "dsload.arrivals.missed";
    /** A plan's warm-up's drops and misses, apart from the measured ones. */
    public static final String WARM_UP_ARRIVALS_DROPPED = "dsload.arrivals.warm_up.dropped";
    public static final String WARM_UP_ARRIVALS_MISSED = "dsload.arrivals.warm_up.missed";

    /** One reading. */
    public record Point(long epochSecond, double value) {
    }

    /** The figures of one engine, by name. */
    public record Engine(String name, Map<String, List<Point>> figures) {
        public List<Point> series(String figure) {
            return figures.getOrDefault(figure, List.of());
        }

        public double peak(String figure) {
            return series(figure).stream().mapToDouble(Point::value).max().orElse(Double.NaN);
        }

        public double last(String figure) {
            List<Point> points = series(figure);
            return points.isEmpty() ? Double.NaN : points.get(points.size() - 1).value();
        }

        /** The largest increase between two readings of a cumulative figure, per second. */
        public double peakRate(String figure) {
            List<Point> points = series(figure);
            double peak = Double.NaN;
            for (int i = 1; i < points.size(); i++) {
                long seconds = points.get(i).epochSecond() - points.get(i - 1).epochSecond();
                if (seconds > 0) {
                    double rate = (points.get(i).value() - points.get(i - 1).value()) / seconds;
                    peak = Double.isNaN(peak) ? rate : Math.max(peak, rate);
                }
            }
            return peak;
        }

        /** The longest run of consecutive readings above a threshold. */
        public int longestRunAbove(String figure, double threshold) {
            int longest = 0;
            int current = 0;
            for (Point p : series(figure)) {
                current = p.value() > threshold ? current + 1 : 0;
                longest = Math.max(longest, current);
            }
            return longest;
        }
    }

    private GeneratorCsv() {
    }

    /** Every engine with figures in the run's folder (and its local slaves' folders), by name; empty when there are none. */
    public static List<Engine> read(Path runDir) throws IOException {
        List<Engine> engines = new ArrayList<>();
        for (Path root : RunFiles.find(runDir, FOLDER)) {
            if (Files.isDirectory(root)) {
                readEngines(root, engines);
            }
        }
        return engines;
    }

    private static void readEngines(Path root, List<Engine> engines) throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                Map<String, List<Point>> figures = new TreeMap<>();
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".csv")).toList()) {
                        String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
                        figures.put(name, points(file));
                    }
                }
                if (!figures.isEmpty()) {
                    engines.add(new Engine(dir.getFileName().toString(), Collections.unmodifiableMap(figures)));
                }
            }
        }
    }

    private static List<Point> points(Path file) throws IOException {
        List<Point> points = new ArrayList<>();
        try (CsvReader csv = new CsvReader(Files.newBufferedReader(file, StandardCharsets.UTF_8))) {
            csv.next(); // the header
            List<String> fields;
            while ((fields = csv.next()) != null) {
                if (fields.size() < 2) {
                    continue;
                }
                try {
                    points.add(new Point(Long.parseLong(fields.get(0).trim()), Double.parseDouble(fields.get(1).trim())));
                } catch (NumberFormatException unreadable) {
                    // a line cut short when the engine was killed
                }
            }
        }
        return points;
    }
}
