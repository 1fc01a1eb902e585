package org.dsload.kairosdb.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunFiles;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRows;
import org.dsload.report.Durations;
import org.dsload.report.LabelStats;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;
import org.dsload.report.WarmUp;

/**
 * S1's capacity figures for a run with KairosDB samplers: points written per minute, the number
 * of monitored resources that load stands for (each reporting 100 metrics every 15 s, 400 points a
 * minute, or every 180 s), the points dsload reported written next to the points KairosDB holds
 * of them, and the dashboard queries per minute. The figures come from the results file (the
 * write samplers' successful sample counts, which are their points); the labels and the counts
 * from KairosDB come from {@value CapacityRecord#FILE}, left by every engine's connection.
 *
 * <p>A capacity is the load KairosDB carried: it is stated only for the measured writes (not the
 * setup phase's, such as the read plan's seed), only when none of their points failed, and as
 * verified only when KairosDB was found to hold every point reported; otherwise the section says
 * why not. A cross-check that failed or differs fails the run ({@link CapacityRecord#failure()}).
 */
public final class WriteCapacitySection implements RunSection {

    @Override
    public int order() {
        return 500;
    }
    /** S1's resource: 100 metrics reported every 15 s (hosts) or every 180 s (network devices). */
    static final int METRICS_PER_RESOURCE = 100;
    static final int FAST_INTERVAL_SECONDS = 15;
    static final int SLOW_INTERVAL_SECONDS = 180;

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        List<CapacityRecord> records = new ArrayList<>();
        for (Path file : RunFiles.find(runDir, CapacityRecord.FILE)) {
            if (Files.isRegularFile(file)) {
                records.addAll(CapacityRecord.read(file));
            }
        }
        if (records.isEmpty()) {
            return Optional.empty();
        }
        Set<String> writeLabels = new LinkedHashSet<>();
        Set<String> setupLabels = new LinkedHashSet<>();
        Set<String> queryLabels = new LinkedHashSet<>();
        records.forEach(r -> {
            writeLabels.addAll(r.writeLabels());
            setupLabels.addAll(r.setupLabels());
            queryLabels.addAll(r.queryLabels());
        });
        writeLabels.removeAll(setupLabels);
        // a warm-up's queries (or writes) come before the measured ones: capacity is the measured window's
        writeLabels.removeIf(WarmUp::is);
        queryLabels.removeIf(WarmUp::is);
        StringBuilder out = new StringBuilder("== KairosDB capacity ==\n");
        String down = downAtEnd(runDir);
        LabelStats writes = merged("writes", writeLabels, summary);
        long reported = records.stream().mapToLong(CapacityRecord::reported).sum();
        if (writes.samples() > 0) {
            measuredWrites(out, writes, records, reported, down);
        } else if (reported > 0) {
            crossCheck(out, records, reported, down);
        }
        long setupPoints = records.stream().mapToLong(CapacityRecord::setupPoints).sum();
        LabelStats setupFailures = merged("setup", setupLabels, summary);
        if (setupPoints > 0 || setupFailures.samples() > 0) {
            line(out, "Setup writes", "[points, failed points]", setupPoints + ", "
                    + (setupFailures.requests() - setupFailures.successes())
                    + " (history written before the load: not a capacity figure)");
        }
        LabelStats queries = merged("queries", queryLabels, summary);
        if (queries.samples() > 0) {
            long millis = queries.lastEnd() - queries.firstStart();
            long answered = records.stream().mapToLong(CapacityRecord::queries).sum();
            long points = records.stream().mapToLong(CapacityRecord::queryPoints).sum();
            long failed = queries.requests() - queries.successes();
            line(out, "Queries", "[total, queries/min, points each]", queries.successes() + ", "
                    + String.format(Locale.ROOT, "%.1f", millis > 0 ? queries.successes() * 60_000.0 / millis : 0.0)
                    + ", " + (answered > 0 ? whole((double) points / answered) : "-")
                    + (failed > 0 ? " (and " + failed + " failed)" : ""));
        }
        for (CapacityRecord r : records) {
            String failure = r.failure();
            // a count the store, down at the end, could not answer is the store's failure, said in the run's verdict
            if (failure != null && !(r.check() == CapacityRecord.Check.UNREACHABLE && down != null)) {
                out.append("Verdict: the run FAILED (").append(r.engine()).append(", ").append(r.connection())
                        .append("): ").append(failure).append('\n');
            }
        }
        return Optional.of(out.toString());
    }

    /** The measured writes' figures, and their capacity when they earned one. */
    private static void measuredWrites(StringBuilder out, LabelStats writes, List<CapacityRecord> records,
            long reported, String down) {
        long millis = writes.lastEnd() - writes.firstStart();
        double perMinute = millis > 0 ? writes.successes() * 60_000.0 / millis : 0;
        long failed = writes.requests() - writes.successes();
        line(out, "Writes", "[points, duration, points/min]",
                writes.successes() + ", " + Durations.format(millis) + ", " + whole(perMinute));
        if (failed > 0) {
            line(out, "Failed", "[points, share]", failed + ", " + String.format(Locale.ROOT, "%.2f%%",
                    failed * 100.0 / writes.requests()));
        }
        crossCheck(out, records, reported, down);
        String why = failed > 0 ? String.format(Locale.ROOT, "%.2f%% of the points written failed (a capacity is the "
                + "load KairosDB carries without failures)", failed * 100.0 / writes.requests())
                : records.stream().map(CapacityRecord::failure).filter(f -> f != null).findFirst().orElse(null);
        if (why != null) {
            out.append(String.format(Locale.ROOT, "%-13s not stated: %s%n", "Capacity", why));
            return;
        }
        double fast = perMinute / pointsPerMinute(FAST_INTERVAL_SECONDS);
        double slow = perMinute / pointsPerMinute(SLOW_INTERVAL_SECONDS);
        line(out, "Resources", "[100 metrics/15 s, /180 s]", whole(fast) + ", " + whole(slow));
        boolean verified = records.stream().filter(r -> r.reported() > 0)
                .allMatch(r -> r.check() == CapacityRecord.Check.MATCH);
        out.append(String.format(Locale.ROOT, "%,.0f points/min is the load of %,.0f resources reporting %d metrics "
                + "every %d s (%,.0f points/min each), or %,.0f reporting every %d s%s.%n", perMinute, fast,
                METRICS_PER_RESOURCE, FAST_INTERVAL_SECONDS, pointsPerMinute(FAST_INTERVAL_SECONDS), slow,
                SLOW_INTERVAL_SECONDS, verified ? "" : " (unverified: the points were not counted back in KairosDB)"));
        out.append(FIND_MAX).append('\n');
    }

    /** How to get the most hosts KairosDB carries within limits, rather than the load of this run. */
    static final String FIND_MAX = "That is the load this run carried. The most hosts KairosDB carries within limits: dsload"
            + " find-max test-plans/kairosdb-write.jmx --rate-property=threads --unit=hosts -Jramp_step=0 --max-p99=<ms>"
            + " --max-error-rate=<%> (each step a run of that many hosts; find-max.txt gives the answer).";

    /**
     * The KairosDB servers the gauges found down when the load ended ("KairosDB host:port down since
     * T"), or null (none, or no gauges were recorded). KairosDB's own metrics name a server by its
     * host tag, a poll nobody answered by the address polled: the servers were down at the end when
     * every poll after the last answer went unanswered.
     */
    private static String downAtEnd(Path runDir) throws IOException {
        List<GaugeTable.Row> rows = GaugeRows.read(runDir, KairosDbServerSection.FILE);
        long lastAnswer = rows.stream().filter(GaugeTable.Row::ok).mapToLong(GaugeTable.Row::epochMillis).max().orElse(-1);
        Map<String, Long> downSince = new LinkedHashMap<>();
        for (GaugeTable.Row row : rows) {
            if (row.epochMillis() > lastAnswer && GaugeFile.UNREACHABLE.equals(row.state())) {
                downSince.putIfAbsent(row.node(), row.epochMillis());
            }
        }
        if (lastAnswer < 0 || downSince.isEmpty()) {
            return null;
        }
        List<String> down = new ArrayList<>();
        downSince.forEach((node, since) -> down.add(node + " down since " + Durations.timestamp(since)));
        return String.join(", ", down);
    }

    /** @param down the servers down when the load ended, or null */
    private static void crossCheck(StringBuilder out, List<CapacityRecord> records, long reported, String down) {
        boolean checked = records.stream().anyMatch(r -> r.reported() > 0) && records.stream()
                .filter(r -> r.reported() > 0).allMatch(r -> r.found() >= 0);
        if (!checked) {
            String why = records.stream().filter(r -> r.reported() > 0 && r.found() < 0).map(CapacityRecord::note)
                    .findFirst().orElse("no points were written");
            line(out, "Cross-check", "[dsload reported, KairosDB holds]", reported + ", not counted: "
                    + (down == null ? why : down + " (" + why + ")"));
            return;
        }
        long found = records.stream().filter(r -> r.reported() > 0).mapToLong(CapacityRecord::found).sum();
        long waited = records.stream().mapToLong(CapacityRecord::waitedMillis).max().orElse(0);
        long unanswered = records.stream().filter(r -> r.reported() > 0).mapToLong(CapacityRecord::unanswered).sum();
        String verdict;
        if (found == reported) {
            verdict = "match";
        } else if (found > reported && found <= reported + unanswered) {
            verdict = String.format(Locale.ROOT, "within: %d of the %d points whose writes got no answer were stored as "
                    + "well", found - reported, unanswered);
        } else if (found < reported) {
            verdict = (reported - found) + " fewer in KairosDB: lost, or still queued when the count ended";
        } else {
            verdict = (found - reported) + " more in KairosDB: earlier data or other writers in these series and "
                    + "times, or points of failed batches that KairosDB kept";
        }
        line(out, "Cross-check", "[dsload reported, KairosDB holds]", reported + ", " + found + " (" + verdict
                + "; counted back in " + Durations.format(waited) + (records.size() > 1 ? " over " + records.size()
                + " engines" : "") + ")");
    }

    private static double pointsPerMinute(int intervalSeconds) {
        return METRICS_PER_RESOURCE * 60.0 / intervalSeconds;
    }

    private static LabelStats merged(String name, Set<String> labels, Summary summary) {
        LabelStats all = new LabelStats(name);
        for (String label : labels) {
            LabelStats s = summary.label(label);
            if (s != null) {
                all.merge(s);
            }
        }
        return all;
    }

    private static String whole(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    private static void line(StringBuilder out, String name, String fields, String values) {
        out.append(String.format(Locale.ROOT, "%-13s %-33s %s%n", name, fields, values));
    }
}
