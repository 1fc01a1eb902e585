package org.dsload.run;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.dsload.report.FaultWindows;
import org.dsload.report.GeneratorCsv;
import org.dsload.report.LabelStats;
import org.dsload.report.Outages;
import org.dsload.report.RequestSeconds;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;

/**
 * What a run that finished with results may still have to say: the store stopped answering for a
 * while ({@link Outages}) or most requests failed, so the figures are not those of a working store;
 * scheduled arrivals went unsent, or a slave was lost or stalled, so the load was not what the plan
 * asked for. Outages a fault test planned are expected: every outage when the user said so
 * ({@value RunProperties#EXPECT_FAULTS}, {@code run --expect-faults}), and one that began while a fault of the
 * run's Fault Schedule was in force; the store's findings then become notes, and so do unsent
 * arrivals once an outage explains them. A lost or stalled slave is never expected.
 */
final class RunHealth {
    /** Most requests: more than this share failed. */
    static final double MOST = 0.5;
    /** Scheduled arrivals not sent count when they are more than this share of those scheduled. */
    static final double UNSENT = 0.01;
    /** A fault's apply sample ends once the fault is in force: the store may fail a moment before. */
    private static final long APPLY_MARGIN_MILLIS = 2000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /**
     * Findings by what they mean: the store's, the load's, and those that were expected; {@code unsent}
     * is the load's finding of scheduled arrivals not sent, if it is one of them; {@code downAtEnd}
     * whether the store stopped answering for good (an outage that lasted to the run's end).
     */
    record Findings(List<String> store, List<String> load, List<String> expected, String unsent, boolean downAtEnd) {
        Findings(List<String> store, List<String> load, List<String> expected) {
            this(store, load, expected, null, false);
        }
    }

    private RunHealth() {
    }

    static Findings judge(Path dir, Summary summary, boolean faultsExpected) throws IOException {
        List<String> store = new ArrayList<>();
        List<String> load = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        RequestSeconds seconds = summary.requestSeconds();
        long runStart = seconds.firstMillis();
        List<GeneratorCsv.Engine> engines = GeneratorCsv.read(dir);
        long runEnd = Math.max(seconds.lastMillis(), lastReading(engines));
        long runMillis = Math.max(1, runEnd - runStart);
        List<FaultWindows.Window> faults = FaultWindows.of(summary.faultMarkers(), dir).stream()
                .filter(FaultWindows.Window::applied).toList();
        List<long[]> excused = new ArrayList<>();
        for (FaultWindows.Window w : faults) {
            excused.add(new long[] {w.start(), w.end() < 0 ? Long.MAX_VALUE : w.end()});
        }
        boolean outageExpected = false;
        boolean downAtEnd = false;
        for (Outages.Outage o : Outages.of(seconds, runEnd)) {
            downAtEnd |= o.toEnd();
            String text = outage(o, runStart, runMillis);
            FaultWindows.Window planned = during(o, faults);
            if (faultsExpected || planned != null) {
                outageExpected = true;
                excused.add(new long[] {o.startMillis(), o.endMillis()});
                expected.add(text + (planned != null ? " (expected: it began during the fault " + planned.label()
                        + " of the Fault Schedule)" : " (expected: " + RunProperties.EXPECT_FAULTS + ")"));
            } else {
                store.add(text);
            }
        }
        for (String stop : RunVerdict.earlyStops(dir)) {
            (faultsExpected ? expected : store).add(stop);
        }
        String most = mostFailed(seconds, excused, !faults.isEmpty());
        if (most != null) {
            (faultsExpected ? expected : store).add(most + (faultsExpected ? " (expected: " + RunProperties.EXPECT_FAULTS + ")" : ""));
        }
        String unsent = unsent(engines, summary);
        if (unsent != null) {
            if (outageExpected && store.isEmpty()) {
                expected.add(unsent + " (expected: the store was down)");
                unsent = null;
            } else {
                load.add(unsent);
            }
        }
        load.addAll(slaves(dir, runStart));
        return new Findings(store, load, expected, unsent, downAtEnd);
    }

    /**
     * The run's end as its engines saw it, in epoch milliseconds: the last per-second reading of any
     * engine at which its plan's threads still ran. An engine whose threads back off from a dead store
     * sends nothing for seconds and is still running; one whose threads all ended (the load done, the
     * run busy with its after-load counts) is not. An engine without a thread count counts to its last
     * reading.
     */
    private static long lastReading(List<GeneratorCsv.Engine> engines) {
        long last = Long.MIN_VALUE;
        for (GeneratorCsv.Engine engine : engines) {
            List<GeneratorCsv.Point> threads = engine.series(GeneratorCsv.JMETER_THREADS);
            if (!threads.isEmpty()) {
                for (GeneratorCsv.Point p : threads) {
                    if (p.value() > 0) {
                        last = Math.max(last, p.epochSecond() * 1000);
                    }
                }
                continue;
            }
            for (List<GeneratorCsv.Point> points : engine.figures().values()) {
                if (!points.isEmpty()) {
                    last = Math.max(last, points.get(points.size() - 1).epochSecond() * 1000);
                }
            }
        }
        return last;
    }

    private static String outage(Outages.Outage o, long runStart, long runMillis) {
        String codes = o.codes().entrySet().stream().limit(3).map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return "no request succeeded from " + at(o.startMillis(), runStart) + " to "
                + (o.toEnd() ? "the end of the run at " + TIME.format(Instant.ofEpochMilli(o.endMillis()))
                        : TIME.format(Instant.ofEpochMilli(o.endMillis())))
                + " (" + seconds(o.millis()) + ", " + percent((double) o.millis() / runMillis) + " of the run): all "
                + o.failed() + " failed (" + codes + (o.codes().size() > 3 ? ", ..." : "") + ")";
    }

    /** The fault in force when the outage began, if any. */
    private static FaultWindows.Window during(Outages.Outage o, List<FaultWindows.Window> faults) {
        for (FaultWindows.Window w : faults) {
            long end = w.end() < 0 ? Long.MAX_VALUE : w.end();
            if (o.startMillis() >= w.start() - APPLY_MARGIN_MILLIS && o.startMillis() <= end) {
                return w;
            }
        }
        return null;
    }

    /** More than half the requests failed, those in the excused spans (faults, expected outages) left out. */
    private static String mostFailed(RequestSeconds seconds, List<long[]> excused, boolean faults) {
        long requests = 0;
        long failed = 0;
        for (Map.Entry<Long, RequestSeconds.Second> e : seconds.seconds().entrySet()) {
            long start = e.getKey() * 1000;
            if (excused.stream().anyMatch(span -> start + 999 >= span[0] && start <= span[1])) {
                continue;
            }
            requests += e.getValue().succeeded() + e.getValue().failed();
            failed += e.getValue().failed();
        }
        if (requests == 0 || failed <= requests * MOST) {
            return null;
        }
        return "most requests failed" + (faults ? " outside the Fault Schedule's faults" : "") + ": " + failed + " of "
                + requests + " (" + percent((double) failed / requests) + ")";
    }

    /**
     * Measured arrivals neither sent nor counted in a sample: dropped, and missed (the generator's figures), the
     * warm-up's left out.
     */
    private static String unsent(List<GeneratorCsv.Engine> engines, Summary summary) {
        double missed = 0;
        double droppedByEngines = 0;
        for (GeneratorCsv.Engine e : engines) {
            missed += orZero(e.last(GeneratorCsv.ARRIVALS_MISSED));
            droppedByEngines += orZero(e.last(GeneratorCsv.ARRIVALS_DROPPED));
        }
        // the measured arrivals: the engines count a warm-up's drops and misses apart, as the summary its samples
        LabelStats measured = summary.measured();
        long dropped = Math.max(measured.droppedArrivals(), Math.round(droppedByEngines));
        long sent = measured.arrivals() - measured.droppedArrivals();
        long scheduled = sent + dropped + Math.round(missed);
        long notSent = dropped + Math.round(missed);
        if (scheduled == 0 || notSent <= scheduled * UNSENT) {
            return null;
        }
        return "scheduled arrivals went unsent: " + notSent + " of " + scheduled + " (" + percent((double) notSent / scheduled)
                + ") were not sent: " + dropped + " dropped (too late, beyond a cap, or due while the store could not be "
                + "reached), " + Math.round(missed) + " missed (taken by no thread before the schedule's end)";
    }

    private static List<String> slaves(Path dir, long runStart) throws IOException {
        List<String> found = new ArrayList<>();
        SlaveRoster roster = SlaveRoster.read(dir).orElse(null);
        if (roster == null) {
            return found;
        }
        for (SlaveRoster.Entry e : roster.in(SlaveRoster.State.LOST)) {
            found.add("slave " + e.address() + " was lost at " + at(e.time(), runStart) + ": " + e.detail()
                    + "; the plan's threads on it did not run to the end");
        }
        for (SlaveRoster.Entry e : roster.in(SlaveRoster.State.STALLED)) {
            found.add("slave " + e.address() + " stalled at " + at(e.time(), runStart) + ": " + e.detail()
                    + "; the run ended without it");
        }
        for (SlaveRoster.Entry e : roster.in(SlaveRoster.State.RESUMED)) {
            found.add("slave " + e.address() + " was out of reach from " + at(e.time(), runStart) + ": it " + e.detail()
                    + "; the plan's load on it did not run meanwhile");
        }
        return found;
    }

    private static String at(long millis, long runStart) {
        String time = TIME.format(Instant.ofEpochMilli(millis));
        return runStart == Long.MAX_VALUE || millis < runStart ? time
                : time + " (" + seconds(millis - runStart) + " into the run)";
    }

    private static String seconds(long millis) {
        return millis < 10_000 ? String.format(Locale.ROOT, "%.1f s", millis / 1000.0) : millis / 1000 + " s";
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static double orZero(double value) {
        return Double.isNaN(value) ? 0 : value;
    }
}
