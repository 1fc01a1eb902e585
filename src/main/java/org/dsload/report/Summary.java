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
    private final long lateMicros;
    private final Map<String, LabelStats> labels = new LinkedHashMap<>();
    private final List<JtlSample> faultMarkers = new ArrayList<>();
    private final LabelStats total;
    private long malformedRows;
    private boolean hasSampleCount;

    private Summary(Path source, long lateMicros) {
        this.source = source;
        this.lateMicros = lateMicros;
        this.total = new LabelStats(ALL_LABELS, lateMicros);
    }

    public static Summary of(Path jtl) throws IOException {
        return of(jtl, LabelStats.DEFAULT_LATE_MICROS);
    }

    /** @param lateMicros an arrival that starts more than this after its intended start counts as late */
    public static Summary of(Path jtl, long lateMicros) throws IOException {
        Summary summary = new Summary(jtl, lateMicros);
        try (JtlReader reader = new JtlReader(jtl).faultMarkers(true)) {
            summary.hasSampleCount = reader.hasColumn("SampleCount");
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                if (JtlReader.isFaultMarker(sample.label())) {
                    summary.faultMarkers.add(sample);
                } else {
                    summary.add(sample);
                }
            }
            summary.malformedRows = reader.malformedRows();
        }
        return summary;
    }

    void add(JtlSample sample) {
        labels.computeIfAbsent(sample.label(), name -> new LabelStats(name, lateMicros)).add(sample);
        total.add(sample);
    }

    /** The fault samples ({@code fault:<kind>:<target>}), which are not requests and count nowhere else. */
    public List<JtlSample> faultMarkers() {
        return faultMarkers;
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
