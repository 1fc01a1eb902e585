package org.dsload.core.format;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The format of the gauge files the engines leave in a run folder, one line per server per second,
 * tab separated: {@value #EPOCH}, {@value #NODE}, {@value #STATE}, one column per gauge, {@value #NOTE}
 * ({@code gauges.GaugeFile} writes them; ZooKeeper's {@code zk-mntr.tsv} has a {@code server}
 * column and no state or note), and how a line of one is read.
 */
public final class GaugeTable {
    public static final String EPOCH = "epoch_ms";
    public static final String NODE = "node";
    public static final String STATE = "state";
    public static final String NOTE = "note";
    /** The server answered; its gauges are on the line. */
    public static final String OK = "ok";
    /** The server could not be reached or did not answer in time (the note says which). */
    public static final String UNREACHABLE = "unreachable";
    private static final String HEADER_START = EPOCH + "\t" + NODE + "\t";
    /** ZooKeeper's zk-mntr.tsv names its second column {@code server}. */
    private static final String ZOOKEEPER_HEADER_START = EPOCH + "\tserver\t";
    /**
     * The label of a slave's gauge lines on their way to the master during the run
     * ({@code core.GaugeStream}), followed by the gauge file's name: no request, never in a results file.
     */
    public static final String STREAM_PREFIX = "dsload-gauges:";

    /** One line: a server's gauges at one time, as one engine read them. */
    public record Row(int engine, long epochMillis, String node, String state, Map<String, String> values,
            String note) {
        public boolean ok() {
            return OK.equals(state);
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

    private GaugeTable() {
    }

    /** Whether a sample's label is a slave's gauge lines ({@value #STREAM_PREFIX}) rather than a request. */
    public static boolean isStreamLabel(String label) {
        return label != null && label.startsWith(STREAM_PREFIX);
    }

    /** A gauge file's header: the time stamp, the server, its state, one column per gauge, the note. */
    public static String header(List<String> gauges) {
        List<String> all = new ArrayList<>(List.of(EPOCH, NODE, STATE));
        all.addAll(gauges);
        all.add(NOTE);
        return String.join("\t", all);
    }

    /** Whether a file's first line is a gauge file's header: the time stamp, then the server. */
    public static boolean isHeader(String line) {
        return line != null && (line.startsWith(HEADER_START) || line.startsWith(ZOOKEEPER_HEADER_START));
    }

    /** Every gauge file of the run (in the run folder or a slave's), told by its header, folder by folder. */
    public static List<Path> files(Path runDir) throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path file : tables(runDir)) {
            if (isHeader(firstLine(file))) {
                found.add(file);
            }
        }
        return found;
    }

    /** Every {@code .tsv} file of the run folder and the slaves' folders, gauge files among them, folder by folder. */
    public static List<Path> tables(Path runDir) throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path dir : RunFiles.folders(runDir)) {
            try (Stream<Path> files = Files.list(dir)) {
                found.addAll(files.filter(f -> f.getFileName().toString().endsWith(".tsv") && Files.isRegularFile(f))
                        .sorted().toList());
            }
        }
        return found;
    }

    private static String firstLine(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return in.readLine();
        }
    }

    /**
     * A gauge file's columns, from its header: each line of the file read with them is a {@link Row}.
     *
     * @param names the header's names, in order
     * @param state the index of the state column, -1 in a file without one
     * @param note  the index of the note column, -1 in a file without one
     */
    public record Columns(List<String> names, int state, int note) {
        public Columns {
            names = List.copyOf(names);
        }

        public static Columns of(String header) {
            List<String> names = List.of(header.split("\t", -1));
            return new Columns(names, names.indexOf(STATE), names.indexOf(NOTE));
        }

        /** The line as a row; null for a line cut short (a full disk, a killed engine) or a second header. */
        public Row row(String line, int engine) {
            String[] cells = line.split("\t", -1);
            if (cells.length != names.size() || cells.length < 3) {
                return null;
            }
            long epoch;
            try {
                epoch = Long.parseLong(cells[0]);
            } catch (NumberFormatException e) {
                return null; // a second header, where a run appended to an older file
            }
            Map<String, String> values = new HashMap<>();
            for (int i = 2; i < cells.length; i++) {
                if (i != state && i != note && !cells[i].isEmpty()) {
                    values.put(names.get(i), cells[i]);
                }
            }
            // A file without state and note columns (ZooKeeper's zk-mntr.tsv) marks a server it
            // could not reach by "unreachable" in a value.
            String rowState = state >= 0 ? cells[state]
                    : values.containsValue(UNREACHABLE) ? UNREACHABLE : OK;
            return new Row(engine, epoch, cells[1], rowState, values, note >= 0 ? cells[note] : "");
        }
    }
}
