package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.format.GaugeTable;
import org.dsload.report.Limits;

/**
 * A limit on one of the server's own gauges, as the run recorded them once a second (the store
 * files of {@link GaugeRecorder}, ZooKeeper's {@code zk-mntr.tsv}): no reading of the gauge in the
 * judged window, on any server of any engine's file, may exceed the bound. Meant for level gauges
 * (clients connected, requests outstanding, pending tasks, memory used), not for counters.
 *
 * @param gauge the gauge's column name, as in the header of its file
 * @param max   the highest reading allowed
 */
public record GaugeLimit(String gauge, double max) {
    private static final Pattern TEXT = Pattern.compile("\\s*([A-Za-z0-9_.:\\-]+)\\s*(?:<=|=)\\s*([0-9][0-9_.]*(?:[eE][0-9]+)?)\\s*");

    /**
     * Reads {@code <gauge>=<number>} (or {@code <gauge><=<number>}).
     *
     * @throws IllegalArgumentException with what is wrong, in a sentence
     */
    public static GaugeLimit parse(String text) {
        Matcher m = TEXT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not <gauge>=<number>, as in zk_outstanding_requests=100"
                    + " or connected_clients=500");
        }
        double max;
        try {
            max = Double.parseDouble(m.group(2).replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + m.group(2) + "' is not a number, in '" + text + "'");
        }
        return new GaugeLimit(m.group(1), max);
    }

    /**
     * Limits written as {@link #parse} reads one, separated by commas, semicolons or spaces (an element's
     * field); none in empty text.
     *
     * @param error what to throw, given what is wrong in a sentence
     */
    public static List<GaugeLimit> parseAll(String text, Function<String, ? extends RuntimeException> error) {
        List<GaugeLimit> limits = new ArrayList<>();
        for (String one : (text == null ? "" : text).trim().split("[,;\\s]+")) {
            if (!one.isEmpty()) {
                try {
                    limits.add(parse(one));
                } catch (IllegalArgumentException e) {
                    throw error.apply(e.getMessage());
                }
            }
        }
        return limits;
    }

    /**
     * The highest reading of a gauge in a window, and what the run recorded.
     *
     * @param value   the peak, NaN when the gauge has no reading in the window
     * @param where   the server and file of the peak
     * @param files   the run's gauge files
     * @param columns every gauge those files hold
     */
    public record Peak(double value, String where, Set<String> files, Set<String> columns) {
    }

    /** The highest reading of the gauge from {@code fromMillis} on, over every server of every engine's file. */
    public Peak peak(Path runDir, long fromMillis) throws IOException {
        Set<String> files = gaugeFiles(runDir);
        double peak = Double.NaN;
        String where = null;
        Set<String> columns = new TreeSet<>();
        for (String name : files) {
            for (GaugeTable.Row row : GaugeRows.read(runDir, new GaugeFile(name, name, null, List.of()))) {
                columns.addAll(row.values().keySet());
                if (row.epochMillis() < fromMillis || !row.ok()) {
                    continue;
                }
                double value = row.number(gauge);
                if (!Double.isNaN(value) && (Double.isNaN(peak) || value > peak)) {
                    peak = value;
                    where = row.node() + " in " + name;
                }
            }
        }
        return new Peak(peak, where, files, columns);
    }

    /** The highest reading of the gauge from {@code fromMillis} on, judged against the bound. */
    public Limits.Verdict judge(Path runDir, long fromMillis) throws IOException {
        return judge(peak(runDir, fromMillis));
    }

    /** A peak read by {@link #peak}, judged against the bound. */
    public Limits.Verdict judge(Peak peak) {
        String bound = "<= " + number(max);
        String figure = "gauge " + gauge;
        if (Double.isNaN(peak.value())) {
            String recorded = peak.files().isEmpty() ? "the run recorded no server gauges (turn them on in the plan's"
                    + " connection element, as the shipped plans' *_gauges properties do)"
                    : peak.columns().contains(gauge) ? "it has no reading in the judged window"
                    : "the gauges recorded are: " + String.join(", ", peak.columns());
            return new Limits.Verdict("server", figure, bound, false, "server gauge " + gauge + " cannot be judged: "
                    + recorded);
        }
        boolean held = peak.value() <= max;
        return new Limits.Verdict("server", figure, bound, held, "server gauge " + gauge + " peaked at "
                + number(peak.value()) + " (" + peak.where() + ")" + (held ? ", within " : " is above the limit ")
                + number(max));
    }

    /** The names of the run's gauge files (in the run folder or a slave's). */
    private static Set<String> gaugeFiles(Path runDir) throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path file : GaugeTable.files(runDir)) {
            names.add(file.getFileName().toString());
        }
        return names;
    }

    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.3f", value);
    }
}
