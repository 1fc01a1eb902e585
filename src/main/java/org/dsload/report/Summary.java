package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.format.TimingValue;

/** The summary of one results file: figures per label, in the order labels first appear, and for all. */
public final class Summary {
    public static final String ALL_LABELS = "All labels";
    /** The measured window: every label but the warm-up's ({@link WarmUp}). */
    public static final String MEASURED = "Measured (all labels but the warm-up)";
    public static final String WARM_UP = "Warm-up";

    private final Path source;
    private final long lateMicros;
    private final Map<String, LabelStats> labels = new LinkedHashMap<>();
    private final List<JtlSample> faultMarkers = new ArrayList<>();
    private final LabelStats total;
    private final RequestSeconds requestSeconds = new RequestSeconds();
    private long malformedRows;
    private boolean hasSampleCount;
    private Recordings recordings = Recordings.none();
    private long aggregateRows;
    /** Per engine of histograms mode: requests in its files (or rows), and requests its aggregate rows in the results file count. */
    private final Map<String, long[]> engineRequests = new LinkedHashMap<>();

    private Summary(Path source, long lateMicros) {
        this.source = source;
        this.lateMicros = lateMicros;
        this.total = new LabelStats(ALL_LABELS, lateMicros);
    }

    public static Summary of(Path jtl) throws IOException {
        return of(jtl, TimingValue.DEFAULT_LATE_MICROS);
    }

    /** @param lateMicros an arrival that starts more than this after its intended start counts as late */
    public static Summary of(Path jtl, long lateMicros) throws IOException {
        Path parent = jtl.toAbsolutePath().getParent();
        return of(jtl, lateMicros, parent == null ? Path.of(".") : parent);
    }

    /**
     * @param runDir the run's folder, where histograms mode left the engines' interval logs
     *               ({@link RecordingFormat}); the results file's own folder by default
     */
    public static Summary of(Path jtl, long lateMicros, Path runDir) throws IOException {
        Summary summary = new Summary(jtl, lateMicros);
        List<Recordings.AggregateRow> aggregates;
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
            aggregates = reader.aggregates();
        }
        summary.aggregateRows = aggregates.size();
        for (Recordings.AggregateRow row : aggregates) {
            summary.labels.computeIfAbsent(row.label(), name -> new LabelStats(name, lateMicros));
            summary.engineRequests.computeIfAbsent(row.engine(), e -> new long[3])[1] += row.requests();
        }
        summary.recordings = Recordings.read(runDir, aggregates);
        summary.recordings.forEach(summary::add);
        summary.labels.values().removeIf(stats -> stats.samples() == 0 && stats.requests() == 0);
        return summary;
    }

    void add(RecordedInterval interval) {
        labels.computeIfAbsent(interval.label(), name -> new LabelStats(name, lateMicros)).add(interval);
        total.add(interval);
        requestSeconds.add(interval);
        long[] e = engineRequests.computeIfAbsent(interval.engine(), name -> new long[3]);
        e[0] += interval.counts().requests();
        e[2]++;
    }

    /**
     * Per engine of histograms mode, in the order first seen: {requests recorded (files, or rows for an
     * engine without files), requests its aggregate rows in the results file count, intervals read}.
     */
    public Map<String, long[]> engineRequests() {
        return engineRequests;
    }

    /** What histograms mode recorded in the run (empty for a run recorded as rows). */
    public Recordings recordings() {
        return recordings;
    }

    /** Aggregate rows of histograms mode in the results file. */
    public long aggregateRows() {
        return aggregateRows;
    }

    /** True when histograms mode recorded some of the run (its latencies come from interval logs). */
    public boolean histograms() {
        return !recordings.isEmpty();
    }

    void add(JtlSample sample) {
        labels.computeIfAbsent(sample.label(), name -> new LabelStats(name, lateMicros)).add(sample);
        total.add(sample);
        requestSeconds.add(sample);
    }

    /** Every request by the second it ended in, for the run's verdict ({@link Outages}). */
    public RequestSeconds requestSeconds() {
        return requestSeconds;
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

    /**
     * Every label but the warm-up's ({@link WarmUp}): what the schedule warning and the verdicts judge;
     * the total when the run had no warm-up.
     */
    public LabelStats measured() {
        return hasWarmUp() ? merged(MEASURED, false) : total;
    }

    /** The warm-up's labels together; empty when the run had none. */
    public LabelStats warmUp() {
        return merged(WARM_UP, true);
    }

    /** True when some labels are a warm-up's. */
    public boolean hasWarmUp() {
        return labels.keySet().stream().anyMatch(WarmUp::is);
    }

    private LabelStats merged(String name, boolean warmUp) {
        LabelStats merged = new LabelStats(name, lateMicros);
        labels.values().stream().filter(s -> WarmUp.is(s.label()) == warmUp).forEach(merged::merge);
        return merged;
    }

    public long malformedRows() {
        return malformedRows;
    }

    /** False when the file lacks the SampleCount column, so a pipelined sample counted as one request. */
    public boolean hasSampleCount() {
        return hasSampleCount;
    }
}
