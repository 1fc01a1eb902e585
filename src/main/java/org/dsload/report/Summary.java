package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The summary of one results file: figures per label, in the order labels first appear, and for all. */
public final class Summary {
    public static final String ALL_LABELS = "All labels";

    private final Path source;
    private final Map<String, LabelStats> labels = new LinkedHashMap<>();
    private final LabelStats total = new LabelStats(ALL_LABELS);
    private long malformedRows;
    private boolean hasSampleCount;

    private Summary(Path source) {
        this.source = source;
    }

    public static Summary of(Path jtl) throws IOException {
        Summary summary = new Summary(jtl);
        try (JtlReader reader = new JtlReader(jtl)) {
            summary.hasSampleCount = reader.hasColumn("SampleCount");
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                summary.add(sample);
            }
            summary.malformedRows = reader.malformedRows();
        }
        return summary;
    }

    void add(JtlSample sample) {
        labels.computeIfAbsent(sample.label(), LabelStats::new).add(sample);
        total.add(sample);
    }

    public Path source() {
        return source;
    }

    public List<LabelStats> labels() {
        return new ArrayList<>(labels.values());
    }

    public LabelStats label(String name) {
        return labels.get(name);
    }

    public LabelStats total() {
        return total;
    }

    public long malformedRows() {
        return malformedRows;
    }

    /** False when the file lacks the SampleCount column, so a pipelined sample counted as one request. */
    public boolean hasSampleCount() {
        return hasSampleCount;
    }
}
