package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.dsload.report.Durations;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.RunFiles;
import org.dsload.report.SlaveOfSample;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;

/**
 * What the engines' samplers sent to a store, summed over the engines, for the cross-check. An
 * engine writes its counts once a second, so a slave lost during the run (killed, or frozen and
 * left behind) last wrote them up to a second before it went, and its requests of that second,
 * which the server counted, are missing: they are taken from the results file instead, the rows of
 * that slave with the labels of that store started after its last count, each count of it grown
 * by as much as its requests grew.
 *
 * @param counts by name, summed over the engines
 * @param lost   one sentence per lost slave whose counts these are, for the cross-check line
 */
public record EngineCounts(Map<String, Long> counts, List<String> lost) {

    /** A lost slave's last counts, and its requests in the results file before and after them. */
    private static final class Lost {
        final String address;
        final SentCounts last;
        long before;
        long after;

        Lost(String address, SentCounts last) {
            this.address = address;
            this.last = last;
        }
    }

    /** @param summary the run's results, where a lost slave's requests are read; null for none */
    public static EngineCounts read(Path runDir, GaugeFile spec, Summary summary) throws IOException {
        Map<String, Long> total = new TreeMap<>();
        Map<String, Lost> lost = new LinkedHashMap<>();
        List<String> gone = lostSlaves(runDir);
        for (Path file : RunFiles.find(runDir, spec.countsName())) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            SentCounts counts = SentCounts.read(file);
            String address = RunFiles.slaveOf(runDir, file);
            if (address != null && gone.contains(address)) {
                lost.put(address, new Lost(address, counts));
            } else {
                counts.counts().forEach((k, v) -> total.merge(k, v, Long::sum));
            }
        }
        List<String> notes = new ArrayList<>();
        boolean fromResults = summary != null && summary.source() != null && !summary.histograms()
                && lost.values().stream().anyMatch(l -> l.last.time() >= 0 && !l.last.labels().isEmpty());
        if (fromResults) {
            readResults(summary.source(), lost);
        }
        for (Lost l : lost.values()) {
            boolean read = fromResults && l.last.time() >= 0 && !l.last.labels().isEmpty();
            for (Map.Entry<String, Long> e : l.last.counts().entrySet()) {
                long grown = e.getValue();
                if (read) {
                    grown += l.before > 0 ? Math.round((double) e.getValue() * l.after / l.before) : l.after;
                }
                total.merge(e.getKey(), grown, Long::sum);
            }
            String at = l.last.time() >= 0 ? " (" + Durations.timestamp(l.last.time()) + ")" : "";
            notes.add(read ? "lost slave " + l.address + ": its last count" + at + " and the " + l.after
                    + " requests the results file has of it after that"
                    : "lost slave " + l.address + ": its last count" + at + " only (the results file cannot tell "
                    + "what it sent after that)");
        }
        return new EngineCounts(total, notes);
    }

    private static List<String> lostSlaves(Path runDir) throws IOException {
        List<String> gone = new ArrayList<>();
        SlaveRoster.read(runDir).ifPresent(r -> {
            r.in(SlaveRoster.State.LOST).forEach(e -> gone.add(e.address()));
            r.in(SlaveRoster.State.STALLED).forEach(e -> gone.add(e.address()));
        });
        return gone;
    }

    /** Counts each lost slave's requests of its store's labels, started before and after its last count. */
    private static void readResults(Path jtl, Map<String, Lost> lost) throws IOException {
        SlaveOfSample slaveOf = new SlaveOfSample(List.copyOf(lost.keySet()));
        Map<String, Set<String>> labels = new HashMap<>();
        lost.forEach((address, l) -> labels.put(address, l.last.labels()));
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                String slave = slaveOf.of(sample.threadName());
                Lost l = slave == null ? null : lost.get(slave);
                if (l == null || !labels.get(slave).contains(sample.label())) {
                    continue;
                }
                if (sample.start() <= l.last.time()) {
                    l.before += sample.sampleCount();
                } else {
                    l.after += sample.sampleCount();
                }
            }
        }
    }

    /** The cross-check lines of a section's text with the lost slaves named at their end. */
    public String named(String text) {
        if (lost.isEmpty()) {
            return text;
        }
        String suffix = "; " + String.join("; ", lost);
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append(line);
            if (line.startsWith(GaugeText.CROSS_CHECK)) {
                out.append(suffix);
            }
        }
        return out.toString();
    }
}
