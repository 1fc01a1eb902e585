package org.dsload.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.dsload.report.Durations;
import org.dsload.report.FaultWindows;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.Latencies;
import org.dsload.report.RecordedInterval;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;
import org.dsload.report.TransportErrors;

/**
 * The load before, during and after each fault window: throughput, errors by code, p50, p95, p99
 * and max, the way S5 compares them (a delay fault shows at p50, where most requests are). "Before" is as long as the window and ends at its start (but not
 * before the previous window ended); "after" starts at its end, as long, and stops at the next
 * window. Samples belong to a phase by their start time. Ends with every revert that failed and
 * every fault record the run left behind.
 */
public final class FaultPhasesSection implements RunSection {

    @Override
    public int order() {
        return 600;
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        List<FaultWindows.Window> windows = FaultWindows.of(summary.faultMarkers(), runDir);
        if (windows.isEmpty()) {
            return Optional.empty();
        }
        List<Phase[]> phases = new ArrayList<>();
        long origin = summary.total().samples() > 0 ? summary.total().firstStart() : windows.get(0).start();
        long lastEnd = summary.total().samples() > 0 ? summary.total().lastEnd() : Long.MAX_VALUE;
        for (int i = 0; i < windows.size(); i++) {
            FaultWindows.Window w = windows.get(i);
            long end = w.end() < 0 ? lastEnd : w.end();
            long length = Math.max(1000, end - w.start());
            long previousEnd = i == 0 ? Long.MIN_VALUE : endOf(windows.get(i - 1), lastEnd);
            long nextStart = i + 1 < windows.size() ? windows.get(i + 1).start() : Long.MAX_VALUE;
            phases.add(new Phase[] {
                new Phase("before", Math.max(w.start() - length, Math.max(previousEnd, origin)), w.start()),
                new Phase("during", w.start(), end),
                new Phase("after", end, Math.min(end + length, Math.min(nextStart, lastEnd)))});
        }
        try (JtlReader reader = new JtlReader(summary.source())) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                for (Phase[] p : phases) {
                    for (Phase phase : p) {
                        phase.offer(s);
                    }
                }
            }
        }
        summary.recordings().forEach(interval -> {
            for (Phase[] p : phases) {
                for (Phase phase : p) {
                    phase.offer(interval);
                }
            }
        });
        StringBuilder out = new StringBuilder("== Fault phases ==\n");
        out.append(String.format(Locale.ROOT, "%-34s %-6s %9s %9s %9s %12s %8s %10s %10s %10s %10s  %s%n", "fault",
                "phase", "from", "to", "requests", "throughput/s", "errors", "p50", "p95", "p99", "max", "errors by code"));
        for (int i = 0; i < windows.size(); i++) {
            FaultWindows.Window w = windows.get(i);
            String name = "#" + w.number() + " " + w.kind() + " " + w.target() + (w.applied() ? "" : " (not applied)");
            for (Phase phase : phases.get(i)) {
                out.append(phase.row(name, origin));
                name = "";
            }
        }
        out.append("Times are seconds since the first sample; a window runs from the end of its apply to the start of "
                + "its revert; throughput counts successful requests.\n");
        if (summary.histograms()) {
            out.append("Histograms mode: an engine's second belongs to the phase its start falls in, so phases are "
                    + "counted to the second; percentiles are HdrHistogram's (3 significant digits).\n");
        }
        phaseWarnings(out, phases);
        List<String> problems = new ArrayList<>();
        for (FaultWindows.Window w : windows) {
            if (!w.applied()) {
                problems.add("APPLY FAILED: " + w.label() + ": " + w.applyMessage());
            } else if (w.end() < 0) {
                problems.add("NO REVERT RECORDED: " + w.label() + " (see 'dsload revert " + runDir + "')");
            } else if (w.revertFailed()) {
                problems.add("REVERT FAILED: " + w.label() + ": " + w.revertMessage());
            }
        }
        Path left = runDir.resolve("applied-faults");
        if (Files.isDirectory(left)) {
            try (Stream<Path> files = Files.list(left)) {
                long n = files.filter(f -> f.toString().endsWith(".fault")).count();
                if (n > 0) {
                    problems.add(n + " fault record(s) left in " + left + ": a fault may still be in force; run 'dsload revert "
                            + runDir + "'");
                }
            }
        }
        for (String never : FaultWindows.skipped(runDir)) {
            out.append("NOT APPLIED: ").append(never).append('\n');
        }
        if (problems.isEmpty()) {
            out.append("Every applied fault was reverted.\n");
        } else {
            problems.forEach(p -> out.append(p).append('\n'));
        }
        return Optional.of(out.toString());
    }

    /** Says when phases hold no request, or end before they start: the faults and the load did not overlap. */
    private static void phaseWarnings(StringBuilder out, List<Phase[]> phases) {
        long empty = phases.stream().flatMap(Arrays::stream).filter(p -> p.stats.requests() == 0).count();
        long inverted = phases.stream().flatMap(Arrays::stream).filter(Phase::inverted).count();
        long all = phases.size() * 3L;
        if (empty == all) {
            out.append("Warning: no phase holds a request: the faults came before or after the load, not during it "
                    + "(a Test Plan that runs its thread groups consecutively runs the schedule's group alone).\n");
        } else if (empty > 0) {
            out.append("Warning: ").append(empty).append(" of ").append(all)
                    .append(" phases hold no request (marked empty); compare only the phases that do.\n");
        }
        if (inverted > 0) {
            out.append("Warning: ").append(inverted).append(" phase(s) end before they start (marked inverted): the "
                    + "load had ended before them.\n");
        }
    }

    private static long endOf(FaultWindows.Window w, long lastEnd) {
        return w.end() < 0 ? lastEnd : w.end();
    }

    /** The samples that started in [from, to). */
    private static final class Phase {
        final String name;
        final long from;
        final long to;
        final LabelStats stats = new LabelStats("phase");
        final Map<String, Long> failedCodes = new TreeMap<>();

        Phase(String name, long from, long to) {
            this.name = name;
            this.from = from;
            this.to = to;
        }

        void offer(JtlSample s) {
            if (s.start() >= from && s.start() < to) {
                stats.add(s);
                if (!s.success()) {
                    failedCodes.merge(TransportErrors.code(s.responseCode()), (long) s.sampleCount(), Long::sum);
                }
            }
        }

        void offer(RecordedInterval i) {
            if (i.start() >= from && i.start() < to) {
                stats.add(i);
                for (RecordedInterval.Code c : i.codes()) {
                    if (!c.success()) {
                        failedCodes.merge(TransportErrors.code(c.code()), c.requests(), Long::sum);
                    }
                }
            }
        }

        String row(String fault, long origin) {
            double seconds = Math.max(0, to - from) / 1000.0;
            long errors = stats.requests() - stats.successes();
            String rate = stats.requests() == 0 ? "0.00%" : String.format(Locale.ROOT, "%.2f%%", 100.0 * errors / stats.requests());
            Latencies h = stats.latencies();
            boolean any = h.count() > 0;
            return String.format(Locale.ROOT, "%-34s %-6s %9.1f %9.1f %9d %12.1f %8s %10s %10s %10s %10s  %s%n", fault,
                    name, (from - origin) / 1000.0, (to - origin) / 1000.0, stats.requests(),
                    seconds > 0 ? stats.successes() / seconds : 0.0, rate, any ? micros(h.percentile(50)) : "-",
                    any ? micros(h.percentile(95)) : "-",
                    any ? micros(h.percentile(99)) : "-", any ? micros(h.max()) : "-", codes() + note());
        }

        boolean inverted() {
            return to < from;
        }

        private String note() {
            return inverted() ? "(inverted: ends before it starts)" : stats.requests() == 0 ? "(empty)" : "";
        }

        private String codes() {
            StringBuilder text = new StringBuilder();
            for (Map.Entry<String, Long> e : failedCodes.entrySet()) {
                text.append(text.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                        .append(String.format(Locale.ROOT, "%.1f%%", 100.0 * e.getValue() / stats.requests()));
            }
            return text.toString();
        }

        private static String micros(long value) {
            return Durations.format(value / 1000.0);
        }
    }
}
