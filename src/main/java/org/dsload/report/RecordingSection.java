package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How histograms mode recorded the run: per engine its intervals, requests and clock offset, the
 * intervals an engine is missing (lost, or stopped early), files that could not be read to the end,
 * and whether the results file's aggregate rows count the same requests as the engines' files.
 */
public final class RecordingSection implements RunSection {
    /** A gap between two intervals of an engine longer than this counts as missing seconds. */
    static final long GAP_MILLIS = 1_500;

    @Override
    public int order() {
        return 650;
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        Recordings recordings = summary.recordings();
        if (recordings.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder("== Recording ==\n");
        out.append("Histograms mode: each engine recorded every request of the dsload samplers into HdrHistogram "
                + "interval logs (" + HdrLatency.DIGITS + " significant digits, 1 s intervals) and per-second counts, "
                + "in its own histograms/<engine>/ folder; the percentiles above come from them. JMeter's HTML "
                + "dashboard is not made in this mode (it counts rows, not requests): chart-throughput.png, "
                + "chart-latency.png (percentiles over time) and chart-errors.png are.\n");
        out.append(String.format(Locale.ROOT, "%-28s %9s %12s %12s %10s  %s%n", "engine", "intervals", "requests",
                "in results", "clock", "from"));
        long runEnd = runEnd(recordings);
        List<String> notes = new ArrayList<>();
        for (Recordings.Engine e : recordings.engines()) {
            long[] counts = summary.engineRequests().getOrDefault(e.name(), new long[3]);
            out.append(String.format(Locale.ROOT, "%-28s %9d %12d %12s %10s  %s%n", e.name(), counts[2], counts[0],
                    summary.aggregateRows() == 0 ? "-" : Long.toString(counts[1]),
                    e.clockOffset() == 0 ? "0" : (e.clockOffset() > 0 ? "+" : "") + e.clockOffset() + "ms",
                    e.hasFiles() ? e.folder() : "results file rows only"));
            if (!e.hasFiles()) {
                notes.add(e.name() + ": its interval logs are not in the run folder (a slave on another machine that "
                        + "could not be reached after the run?): its requests are counted from the results file's "
                        + "rows and have no latencies; fetch its dsload-recordings/ folder to complete the figures.");
            } else {
                notes.addAll(gaps(e, runEnd));
            }
            if (summary.aggregateRows() > 0 && counts[1] != counts[0] && e.hasFiles()) {
                notes.add(e.name() + ": the results file's rows count " + counts[1] + " requests, its files "
                        + counts[0] + (counts[1] < counts[0] ? " (rows that never reached the results file: the "
                        + "master stopped or the engine was lost before sending them; the files count them all)"
                        : " (its last intervals are missing from the files: the engine was killed)") + ".");
            }
        }
        recordings.problems().forEach(p -> notes.add("Unreadable: " + p));
        notes.forEach(n -> out.append(n).append('\n'));
        if (notes.isEmpty()) {
            out.append("Every engine recorded every second of the run, and the results file's rows count the same "
                    + "requests as the engines' files.\n");
        }
        return Optional.of(out.toString());
    }

    /** The stretches of the run an engine has no interval for, after its first one. */
    static List<String> gaps(Recordings.Engine e, long runEnd) {
        List<long[]> closed = new ArrayList<>(e.closedIntervals());
        closed.sort((a, b) -> Long.compare(a[0], b[0]));
        List<String> gaps = new ArrayList<>();
        if (closed.isEmpty()) {
            gaps.add(e.name() + ": no interval recorded at all");
            return gaps;
        }
        // an engine that started after others (a master starts its slaves one by one) misses nothing
        long covered = closed.get(0)[0];
        for (long[] i : closed) {
            if (i[0] - covered > GAP_MILLIS) {
                gaps.add(missing(e, covered, i[0], false));
            }
            covered = Math.max(covered, i[1]);
        }
        if (runEnd - covered > GAP_MILLIS) {
            gaps.add(missing(e, covered, runEnd, true));
        }
        return gaps;
    }

    private static String missing(Recordings.Engine e, long from, long to, boolean atEnd) {
        return String.format(Locale.ROOT, "%s: intervals missing from %s to %s (%.1f s)%s", e.name(),
                Durations.timestamp(from), Durations.timestamp(to), (to - from) / 1000.0,
                atEnd ? ": the engine recorded nothing after that while others went on (lost or stopped early); "
                        + "what it recorded before is counted" : "");
    }

    private static long runEnd(Recordings recordings) {
        long end = Long.MIN_VALUE;
        for (Recordings.Engine e : recordings.engines()) {
            for (long[] i : e.closedIntervals()) {
                end = Math.max(end, i[1]);
            }
        }
        return end;
    }

    /** The missing stretches of every engine that has files. */
    public static List<String> gaps(Recordings recordings) {
        long end = runEnd(recordings);
        List<String> all = new ArrayList<>();
        for (Recordings.Engine e : recordings.engines()) {
            if (e.hasFiles()) {
                all.addAll(gaps(e, end));
            }
        }
        return all;
    }
}
