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

import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunFiles;

/**
 * Reads back what gauge recorders left in a run: the gauge lines of every engine (the run
 * folder, and each local slave's folder, in {@link GaugeTable}'s format), and the counts of what the
 * engines' samplers sent.
 */
public final class GaugeRows {
    private GaugeRows() {
    }

    /** Every line of every engine's file, in time order; none when no engine recorded this store. */
    public static List<GaugeTable.Row> read(Path runDir, GaugeFile spec) throws IOException {
        List<GaugeTable.Row> rows = new ArrayList<>();
        int engine = 0;
        for (Path file : RunFiles.find(runDir, spec.name())) {
            if (Files.isRegularFile(file)) {
                read(file, engine++, rows);
            }
        }
        rows.sort(Comparator.comparingLong(GaugeTable.Row::epochMillis));
        return rows;
    }

    private static void read(Path file, int engine, List<GaugeTable.Row> rows) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String headerLine = in.readLine();
            if (headerLine == null) {
                return;
            }
            GaugeTable.Columns columns = GaugeTable.Columns.of(headerLine);
            String line;
            while ((line = in.readLine()) != null) {
                GaugeTable.Row row = columns.row(line, engine);
                if (row != null) {
                    rows.add(row);
                }
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
