package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.dsload.core.format.RunFiles;
import org.dsload.report.Durations;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.SlaveOfSample;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;

/**
 * What the engines' samplers sent to a store, summed over the engines, for the cross-check. An
 * engine writes its counts once a second, so a slave lost during the run (killed, or frozen and
 * left behind) last wrote them up to a second before it went, and what it sent in that second,
 * which the server counted, is missing; a slave without a run folder of its own loses its counts
 * with it. The results file tells instead: the rows of that slave with the labels of that store
 * (as the engines' counts files name them), started after its last count, each of its counts
 * growing by as much as its requests did; or, without counts of its own, all its rows, counted as
 * the other engines count theirs. A slave that ran to the end but whose counts could not be fetched
 * after the run (its recording port closed) leaves them missing: no server count is compared then.
 *
 * @param counts  by name, summed over the engines
 * @param lost    one sentence per lost slave whose part of the counts this is, for the cross-check line
 * @param missing why the counts are incomplete (the slaves whose counts could not be fetched), or null
 */
public record EngineCounts(Map<String, Long> counts, List<String> lost, String missing) {

    /** A lost slave: its last counts if it left them, and its requests in the results file. */
    private static final class Lost {
        final String address;
        final SentCounts last;
        long before;
        long after;

        Lost(String address, SentCounts last) {
            this.address = address;
            this.last = last;
        }

        boolean timed() {
            return last != null && last.time() >= 0;
        }
    }

    /** @param summary the run's results, where a lost slave's requests are read; null for none */
    public static EngineCounts read(Path runDir, GaugeFile spec, Summary summary) throws IOException {
        Map<String, Long> total = new TreeMap<>();
        Map<String, Lost> lost = new LinkedHashMap<>();
        lostSlaves(runDir).forEach(a -> lost.put(a, new Lost(a, null)));
        Set<String> labels = new HashSet<>();
        boolean counted = false;
        for (Path file : RunFiles.find(runDir, spec.countsName())) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            counted = true;
            SentCounts counts = SentCounts.read(file);
            labels.addAll(counts.labels());
            String address = RunFiles.slaveOf(runDir, file);
            if (address != null && lost.containsKey(address)) {
                lost.put(address, new Lost(address, counts));
            } else {
                counts.counts().forEach((k, v) -> total.merge(k, v, Long::sum));
            }
        }
        String missing = missing(runDir);
        if (lost.isEmpty() || !counted) {
            return new EngineCounts(total, List.of(), missing);
        }
        boolean fromResults = summary != null && summary.source() != null && !summary.histograms() && !labels.isEmpty();
        long others = fromResults ? readResults(summary.source(), lost, labels) : 0;
        Map<String, Long> ofOthers = Map.copyOf(total);
        List<String> notes = new ArrayList<>();
        for (Lost l : lost.values()) {
            if (l.last == null) {
                if (fromResults && others > 0 && l.after > 0) {
                    ofOthers.forEach((k, v) -> total.merge(k, Math.round((double) v * l.after / others), Long::sum));
                    notes.add("lost slave " + l.address + ": its " + l.after + " requests in the results file, counted "
                            + "as the other engines count theirs (its own counts went with it)");
                } else if (fromResults && l.after == 0) {
                    notes.add("lost slave " + l.address + ": no request of it in the results file (its counts went "
                            + "with it)");
                } else {
                    notes.add("lost slave " + l.address + ": not counted (its counts went with it)");
                }
                continue;
            }
            boolean read = fromResults && l.timed();
            for (Map.Entry<String, Long> e : l.last.counts().entrySet()) {
                long grown = e.getValue();
                if (read) {
                    grown += l.before > 0 ? Math.round((double) e.getValue() * l.after / l.before) : l.after;
                }
                total.merge(e.getKey(), grown, Long::sum);
            }
            String at = l.timed() ? " (" + Durations.timestamp(l.last.time()) + ")" : "";
            notes.add(read ? "lost slave " + l.address + ": its last count" + at + " and the " + l.after
                    + " requests the results file has of it after that"
                    : "lost slave " + l.address + ": its last count" + at + " only (the results file cannot tell "
                    + "what it sent after that)");
        }
        return new EngineCounts(total, notes, missing);
    }

    /** Why the counts lack the part of slaves whose recordings could not be fetched after the run, or null. */
    private static String missing(Path runDir) throws IOException {
        List<String> unfetched = SlaveRoster.read(runDir).map(r -> r.in(SlaveRoster.State.UNFETCHED)).orElse(List.of())
                .stream().map(SlaveRoster.Entry::address).toList();
        if (unfetched.isEmpty()) {
            return null;
        }
        boolean one = unfetched.size() == 1;
        return "the counts of slave" + (one ? " " : "s ") + String.join(", ", unfetched) + " are missing: " + (one ? "its" : "their") + " recordings could not be fetched after the run (see the "
                + "Slaves section)";
    }

    /** The servers, each told that the counts are missing when they are, so that no count of theirs is compared. */
    public Map<String, NodeGauges> compared(Map<String, NodeGauges> nodes) {
        if (missing != null) {
            nodes.values().forEach(n -> n.countsMissing(missing));
        }
        return nodes;
    }

    /** The slaves lost during the run (and those left behind stalled), by address. */
    public static List<String> lostSlaves(Path runDir) throws IOException {
        List<String> gone = new ArrayList<>();
        SlaveRoster.read(runDir).ifPresent(r -> {
            r.in(SlaveRoster.State.LOST).forEach(e -> gone.add(e.address()));
            r.in(SlaveRoster.State.STALLED).forEach(e -> gone.add(e.address()));
        });
        return gone;
    }

    /**
     * Counts the requests of the store's labels: each lost slave's, before and after its last
     * count (all of them "after" for one that left none); returns the other engines'.
     */
    private static long readResults(Path jtl, Map<String, Lost> lost, Set<String> labels) throws IOException {
        SlaveOfSample slaveOf = new SlaveOfSample(List.copyOf(lost.keySet()));
        long others = 0;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                if (!labels.contains(sample.label())) {
                    continue;
                }
                String slave = slaveOf.of(sample.threadName());
                Lost l = slave == null ? null : lost.get(slave);
                if (l == null) {
                    others += sample.sampleCount();
                } else if (l.timed() && sample.start() <= l.last.time()) {
                    l.before += sample.sampleCount();
                } else {
                    l.after += sample.sampleCount();
                }
            }
        }
        return others;
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
