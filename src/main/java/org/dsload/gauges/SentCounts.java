package org.dsload.gauges;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One engine's counts file as written ({@code name, count} lines), with what goes beside the
 * counts for the summary: when they were taken, and the results-file labels of the samplers that
 * sent them. Those lines have three cells ({@code #, time|label, value}), which readers of the
 * two-cell lines skip.
 *
 * @param time   when the counts were taken (epoch ms), or -1 when the file does not say
 * @param labels the labels of the samples of this store on the engine
 */
public record SentCounts(Map<String, Long> counts, long time, Set<String> labels) {
    private static final String MARK = "#";
    private static final String TIME = "time";
    private static final String LABEL = "label";

    /** The lines that follow the counts: their time and the store's labels. */
    public static String stamp(long epochMillis, Collection<String> labels) {
        StringBuilder text = new StringBuilder(MARK + "\t" + TIME + "\t" + epochMillis + "\n");
        labels.forEach(l -> text.append(MARK).append('\t').append(LABEL).append('\t').append(GaugeFile.cell(l))
                .append('\n'));
        return text.toString();
    }

    public static SentCounts read(Path file) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        long time = -1;
        Set<String> labels = new LinkedHashSet<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] cells = line.split("\t", -1);
            try {
                if (cells.length == 2) {
                    counts.merge(cells[0], Long.parseLong(cells[1]), Long::sum);
                } else if (cells.length == 3 && cells[0].equals(MARK) && cells[1].equals(TIME)) {
                    time = Long.parseLong(cells[2]);
                } else if (cells.length == 3 && cells[0].equals(MARK) && cells[1].equals(LABEL)) {
                    labels.add(cells[2]);
                }
            } catch (NumberFormatException e) {
                // the header
            }
        }
        return new SentCounts(counts, time, labels);
    }
}
