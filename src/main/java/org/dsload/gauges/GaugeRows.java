package org.dsload.gauges;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.core.format.RunFiles;

/**
 * Reads back what gauge recorders left in a run: the gauge lines of every engine (the run
 * folder, and each local slave's folder), and the counts of what the engines' samplers sent.
 */
public final class GaugeRows {

    /** One line: a server's gauges at one time, as one engine read them. */
    public record Row(int engine, long epochMillis, String node, String state, Map<String, String> values,
            String note) {
        public boolean ok() {
            return GaugeFile.OK.equals(state);
        }

        public String text(String column) {
            return values.getOrDefault(column, "");
        }

        /** The value as a number; NaN when it is missing or not a number. */
        public double number(String column) {
            String v = values.get(column);
            if (v == null || v.isEmpty()) {
                return Double.NaN;
            }
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
    }

    private GaugeRows() {
    }

    /** Every line of every engine's file, in time order; none when no engine recorded this store. */
    public static List<Row> read(Path runDir, GaugeFile spec) throws IOException {
        List<Row> rows = new ArrayList<>();
        int engine = 0;
        for (Path file : RunFiles.find(runDir, spec.name())) {
            if (Files.isRegularFile(file)) {
                read(file, engine++, rows);
            }
        }
        rows.sort(Comparator.comparingLong(Row::epochMillis));
        return rows;
    }

    private static void read(Path file, int engine, List<Row> rows) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String headerLine = in.readLine();
            if (headerLine == null) {
                return;
            }
            List<String> header = List.of(headerLine.split("\t", -1));
            // A file without state and note columns (ZooKeeper's zk-mntr.tsv) marks a server it
            // could not reach by "unreachable" in a value.
            int state = header.indexOf(GaugeFile.STATE);
            int note = header.indexOf(GaugeFile.NOTE);
            String line;
            while ((line = in.readLine()) != null) {
                String[] cells = line.split("\t", -1);
                if (cells.length != header.size() || cells.length < 3) {
                    continue; // a line cut short by a full disk or a killed engine
                }
                long epoch;
                try {
                    epoch = Long.parseLong(cells[0]);
                } catch (NumberFormatException e) {
                    continue; // a second header, where a run appended to an older file
                }
                Map<String, String> values = new HashMap<>();
                for (int i = 2; i < cells.length; i++) {
                    if (i != state && i != note && !cells[i].isEmpty()) {
                        values.put(header.get(i), cells[i]);
                    }
                }
                String rowState = state >= 0 ? cells[state]
                        : values.containsValue(GaugeFile.UNREACHABLE) ? GaugeFile.UNREACHABLE : GaugeFile.OK;
                rows.add(new Row(engine, epoch, cells[1], rowState, values, note >= 0 ? cells[note] : ""));
            }
        }
    }

    /**
     * The slave of each engine number of {@link #read} (the order of {@link RunFiles#find}) among
     * the given addresses: those engines' numbers to their addresses.
     */
    public static Map<Integer, String> engines(Path runDir, GaugeFile spec, java.util.Collection<String> slaves)
            throws IOException {
        Map<Integer, String> engines = new HashMap<>();
        int engine = 0;
        for (Path file : RunFiles.find(runDir, spec.name())) {
            if (Files.isRegularFile(file)) {
                String address = RunFiles.slaveOf(runDir, file);
                if (address != null && slaves.contains(address)) {
                    engines.put(engine, address);
                }
                engine++;
            }
        }
        return engines;
    }

    /** What the engines' samplers sent to this store, by name, summed over engines, as their files say. */
    public static Map<String, Long> counts(Path runDir, GaugeFile spec) throws IOException {
        Map<String, Long> total = new TreeMap<>();
        for (Path file : RunFiles.find(runDir, spec.countsName())) {
            if (Files.isRegularFile(file)) {
                SentCounts.read(file).counts().forEach((k, v) -> total.merge(k, v, Long::sum));
            }
        }
        return total;
    }
}
