package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.dsload.core.format.RunFiles;
import org.dsload.core.format.RunProperties;

/**
 * The slaves of a distributed run: throughput, success ratio and percentiles per slave and for the
 * whole run, which slaves were lost (and when) or missing. Per-slave figures come from a second
 * pass over the results file; the whole-run row merges the per-slave histograms, which keep a
 * counter per distinct microsecond value, so it loses nothing and its percentiles are exact.
 */
public final class SlavesSection implements RunSection {

    @Override
    public int order() {
        return 700;
    }
    static final String NO_SLAVE = "(no slave prefix)";
    static final String WHOLE_RUN = "all slaves";
    static final String METHOD = "Percentiles are exact: nearest rank over every sample; the all-slaves row merges the "
            + "per-slave histograms (one counter per distinct microsecond value) without loss.";
    static final String HDR_METHOD = "Percentiles are HdrHistogram's (" + HdrLatency.DIGITS + " significant digits) "
            + "from each slave's interval logs; the all-slaves row merges them without further loss.";

    /** Figures per slave, in the roster's order, and merged. */
    /**
     * @param clockOffsets each slave's clock less the runner's (ms), where the runner measured it
     * @param threadStarts when each slave started its thread groups (epoch ms), where it noted it
     */
    public record Figures(Map<String, LabelStats> slaves, LabelStats whole, Optional<SlaveRoster> roster,
            Map<String, Long> clockOffsets, Map<String, Long> threadStarts) {
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        Optional<Figures> figures = figures(runDir, summary);
        return figures.map(f -> text(f, summary));
    }

    /** Empty for a run that was not distributed (no roster, and not every thread name has a slave prefix). */
    public static Optional<Figures> figures(Path runDir, Summary summary) throws IOException {
        Optional<SlaveRoster> roster = SlaveRoster.read(runDir);
        List<String> known = roster.map(SlaveRoster::ranThePlan).orElse(List.of());
        if (summary.source() == null || (roster.isEmpty() && summary.total().samples() == 0)) {
            return Optional.empty();
        }
        SlaveOfSample slaveOf = new SlaveOfSample(known);
        Map<String, LabelStats> slaves = new LinkedHashMap<>();
        known.forEach(a -> slaves.put(a, new LabelStats(a)));
        try (JtlReader reader = new JtlReader(summary.source())) {
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                String slave = slaveOf.of(sample.threadName());
                if (slave == null) {
                    if (roster.isEmpty()) {
                        return Optional.empty();
                    }
                    slave = NO_SLAVE;
                }
                slaves.computeIfAbsent(slave, LabelStats::new).add(sample);
            }
        }
        if (summary.histograms()) {
            Map<String, String> addressOfEngine = new HashMap<>();
            known.forEach(a -> addressOfEngine.put(RunProperties.engine(a), a));
            boolean[] slaveEngines = {false};
            summary.recordings().forEach(interval -> {
                String address = addressOfEngine.get(interval.engine());
                if (address == null && known.isEmpty() && interval.engine().startsWith("slave-")) {
                    address = interval.engine().substring("slave-".length());
                }
                if (address != null) {
                    slaveEngines[0] = true;
                }
                slaves.computeIfAbsent(address == null ? NO_SLAVE : address, LabelStats::new).add(interval);
            });
            if (roster.isEmpty() && !slaveEngines[0]) {
                return Optional.empty();
            }
        }
        LabelStats whole = new LabelStats(WHOLE_RUN);
        slaves.values().forEach(whole::merge);
        return Optional.of(new Figures(slaves, whole, roster, numbers(runDir, known, RecordingFormat.CLOCK_OFFSET),
                numbers(runDir, known, RunFiles.THREADS_STARTED)));
    }

    /** The number in the file of that name in each slave's folder, by slave, where there is one. */
    private static Map<String, Long> numbers(Path runDir, List<String> slaves, String name) throws IOException {
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (String slave : slaves) {
            int colon = slave.lastIndexOf(':');
            if (colon < 0) {
                continue;
            }
            Path file = RunFiles.slaveFolder(runDir, slave.substring(0, colon), Integer.parseInt(slave.substring(colon
                    + 1))).resolve(name);
            if (Files.isRegularFile(file)) {
                try {
                    offsets.put(slave, Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim()));
                } catch (NumberFormatException e) {
                    // not measured
                }
            }
        }
        return offsets;
    }

    static String text(Figures f, Summary summary) {
        StringBuilder out = new StringBuilder("== Slaves ==\n");
        out.append(String.format(Locale.ROOT, "%-24s %-9s %10s %11s %12s %8s %9s %9s %9s %9s %9s%n", "slave", "state",
                "requests", "rate/s", "throughput/s", "success", "p50", "p90", "p95", "p99", "max"));
        Map<String, SlaveRoster.Entry> entries = new LinkedHashMap<>();
        f.roster().ifPresent(r -> r.entries().forEach(e -> entries.put(e.address(), e)));
        for (LabelStats s : f.slaves().values()) {
            SlaveRoster.Entry e = entries.get(s.label());
            row(out, s, e == null ? "" : e.state().name().toLowerCase(Locale.ROOT));
        }
        row(out, f.whole(), "");
        long fileRequests = summary.total().requests();
        if (f.whole().requests() != fileRequests) {
            out.append("Warning: the slaves add up to ").append(f.whole().requests()).append(" requests, the results file has ")
                    .append(fileRequests).append(".\n");
        }
        startSkew(f).ifPresent(out::append);
        List<SlaveRoster.Entry> notable = new ArrayList<>();
        f.roster().ifPresent(r -> {
            notable.addAll(r.in(SlaveRoster.State.LOST));
            notable.addAll(r.in(SlaveRoster.State.STALLED));
            notable.addAll(r.in(SlaveRoster.State.MISSING));
            notable.addAll(r.in(SlaveRoster.State.UNFETCHED));
            notable.addAll(r.in(SlaveRoster.State.RESUMED));
        });
        long runStart = summary.total().samples() > 0 ? summary.total().firstStart() : 0;
        for (SlaveRoster.Entry e : notable) {
            if (e.state() == SlaveRoster.State.LOST || e.state() == SlaveRoster.State.STALLED) {
                LabelStats s = f.slaves().get(e.address());
                out.append(e.state() == SlaveRoster.State.LOST ? "Lost: " : "Stalled: ").append(e.address()).append(" at ")
                        .append(Durations.timestamp(e.time()));
                if (runStart > 0) {
                    double seconds = (e.time() - runStart) / 1000.0;
                    out.append(String.format(Locale.ROOT, " (%.1f s %s the first sample)", Math.abs(seconds),
                            seconds < 0 ? "before" : "after"));
                }
                out.append(": ").append(e.detail());
                if (s != null && s.samples() > 0) {
                    out.append("; its last sample ended ").append(Durations.timestamp(s.lastEnd()));
                } else {
                    out.append("; no sample of it arrived");
                }
                out.append(e.state() == SlaveRoster.State.LOST ? ". The other slaves ran to the end.\n"
                        : ". The run ended without waiting for it.\n");
            } else if (e.state() == SlaveRoster.State.RESUMED) {
                out.append("Resumed: ").append(e.address()).append(" from ").append(Durations.timestamp(e.time()));
                if (runStart > 0) {
                    double seconds = (e.time() - runStart) / 1000.0;
                    out.append(String.format(Locale.ROOT, " (%.1f s %s the first sample)", Math.abs(seconds),
                            seconds < 0 ? "before" : "after"));
                }
                out.append(": ").append(e.detail()).append(", and ran to the end.\n");
            } else if (e.state() == SlaveRoster.State.UNFETCHED) {
                out.append("Unfetched: ").append(e.address()).append(" ran to the end, but its recordings (server gauges, "
                        + "counts, histograms) could not be fetched after the run (").append(e.detail()).append("): its "
                        + "requests are counted from the results file, the cross-checks lack its counts.\n");
            } else {
                out.append("Missing: ").append(e.address()).append(" could not be reached before the run (")
                        .append(e.detail()).append("); the run went on without it.\n");
            }
        }
        out.append(f.whole().latencies().exact() ? METHOD : HDR_METHOD).append('\n');
        return out.toString();
    }

    /**
     * When each slave started, from the earliest one, and the skew between the first and the last:
     * {@code Start: a +0 ms, b +12 ms (...); start skew: 12 ms between the first and last engine's
     * start}. The start is when the slave let its thread groups start, where it noted that in its
     * folder ({@link RunFiles#THREADS_STARTED}: local slaves, and those whose files the runner fetched), else its first sample's start; a line
     * of first samples follows the first form. Each time is on the slave's clock, less that clock's
     * offset from the runner's where the runner measured one ({@link RecordingFormat#CLOCK_OFFSET}).
     * Empty with fewer than two slaves that sent a sample.
     */
    static Optional<String> startSkew(Figures f) {
        Map<String, Long> firstSamples = new LinkedHashMap<>();
        for (LabelStats s : f.slaves().values()) {
            if (!s.label().equals(NO_SLAVE) && s.samples() > 0) {
                firstSamples.put(s.label(), s.firstStart() - f.clockOffsets().getOrDefault(s.label(), 0L));
            }
        }
        if (firstSamples.size() < 2) {
            return Optional.empty();
        }
        String clocks = f.clockOffsets().isEmpty() ? "on its own clock" : "less its clock's offset from the runner's: "
                + f.clockOffsets().entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " ms")
                        .collect(java.util.stream.Collectors.joining(", "));
        StringBuilder out = new StringBuilder();
        if (f.threadStarts().keySet().containsAll(firstSamples.keySet())) {
            Map<String, Long> starts = new LinkedHashMap<>();
            firstSamples.keySet().forEach(s -> starts.put(s, f.threadStarts().get(s) - f.clockOffsets().getOrDefault(s,
                    0L)));
            out.append("Start: ").append(offsets(starts)).append(" (when each slave started its thread groups); start "
                    + "skew: ").append(spread(starts)).append(" ms between the first and last engine's start\n");
            out.append("First samples: ").append(offsets(firstSamples)).append(" (each slave's first sample, ")
                    .append(clocks).append("): ").append(spread(firstSamples)).append(" ms apart\n");
        } else {
            out.append("Start: ").append(offsets(firstSamples)).append(" (each slave's first sample, ").append(clocks)
                    .append("); start skew: ").append(spread(firstSamples))
                    .append(" ms between the first and last engine's start\n");
        }
        return Optional.of(out.toString());
    }

    private static String offsets(Map<String, Long> times) {
        long first = times.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        List<String> each = new ArrayList<>();
        times.forEach((slave, at) -> each.add(slave + " +" + (at - first) + " ms"));
        return String.join(", ", each);
    }

    private static long spread(Map<String, Long> times) {
        return times.values().stream().mapToLong(Long::longValue).max().orElseThrow()
                - times.values().stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    private static void row(StringBuilder out, LabelStats s, String state) {
        Latencies h = s.latencies();
        out.append(String.format(Locale.ROOT, "%-24s %-9s %10d %11.2f %12.2f %7.2f%% %9s %9s %9s %9s %9s%n", s.label(), state,
                s.requests(), s.rate(), s.throughput(), s.successRatio() * 100, micros(h.percentile(50)),
                micros(h.percentile(90)), micros(h.percentile(95)), micros(h.percentile(99)), micros(h.max())));
    }

    private static String micros(long value) {
        return Durations.format(value / 1000.0);
    }
}
