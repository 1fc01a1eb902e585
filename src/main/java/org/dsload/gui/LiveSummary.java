package org.dsload.gui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.RecordedInterval;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;

/**
 * The summary of every sample seen so far, per label in the order labels first appear and for
 * all: the figures and text of {@code dsload summary}, fed one sample at a time from many
 * sampler threads and read by the GUI while they run.
 */
final class LiveSummary {
    private final Map<String, LabelStats> labels = new LinkedHashMap<>();
    private LabelStats total = new LabelStats(Summary.ALL_LABELS);
    /** Bumped by every change, so a reader can tell whether there is anything new to show. */
    private long version;

    synchronized void add(JtlSample sample) {
        labels.computeIfAbsent(sample.label(), LabelStats::new).add(sample);
        total.add(sample);
        version++;
    }

    /** An aggregate row of histograms mode, as the interval it stands for. */
    synchronized void add(RecordedInterval interval) {
        labels.computeIfAbsent(interval.label(), LabelStats::new).add(interval);
        total.add(interval);
        version++;
    }

    synchronized void clear() {
        labels.clear();
        total = new LabelStats(Summary.ALL_LABELS);
        version++;
    }

    synchronized long version() {
        return version;
    }

    synchronized long samples() {
        return total.samples();
    }

    /** The summary text: how latencies were measured, then the vegeta-shaped blocks. */
    synchronized String render() {
        if (total.samples() == 0) {
            return "";
        }
        List<LabelStats> all = new ArrayList<>(labels.values());
        String missing = total.samplesWithoutLatency() == 0 ? "" : "Latencies of " + total.samplesWithoutLatency()
                + " samples are in their engines' interval logs only (rows of histograms mode that reach this "
                + "listener without them); the summary after the run has them.\n";
        return "Latencies: " + SummaryText.method(total) + ".\n" + missing + SummaryText.resolution(total)
                + SummaryText.blocks(all, total);
    }
}
