package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.format.RunFiles;

/**
 * The fault windows of a run: from the results file's {@code fault:<kind>:<target>} samples (an
 * apply, then a revert) and the schedule's event log {@code faults.tsv} in the run folder or a
 * slave's folder, which also holds reverts done after the schedule's thread had ended. A window
 * is in force from the end of its apply to the start of its revert.
 */
public final class FaultWindows {
    /** The schedule's event log, written by the engine that ran it. */
    public static final String EVENT_LOG = "faults.tsv";
    static final String APPLIED = "APPLIED";
    static final String REVERTED = "REVERTED";
    static final String NOT_APPLIED = "NOT_APPLIED";
    static final String REVERT_FAILED = "REVERT_FAILED";
    /** The kind of fault that is over once applied (stop and start again): no revert follows its apply. */
    public static final String INSTANT_KIND = "restart";

    /** One fault: when it was in force (end -1 if no revert was recorded), and how apply and revert went. */
    public record Window(int number, String label, long start, long end, boolean applied, String applyMessage,
            String revertCode, String revertMessage) {
        public String kind() {
            return FaultWindows.kind(label);
        }

        public String target() {
            return FaultWindows.target(label);
        }

        public boolean revertFailed() {
            return applied && (revertCode == null || !(revertCode.equals(REVERTED) || revertCode.equals(NOT_APPLIED)));
        }
    }

    private FaultWindows() {
    }

    /** The kind of a fault sample's label {@code fault:<kind>:<target>}. */
    public static String kind(String label) {
        String[] parts = label.split(":", 3);
        return parts.length > 1 ? parts[1] : label;
    }

    /** The target (node name) of a fault sample's label. */
    public static String target(String label) {
        String[] parts = label.split(":", 3);
        return parts.length > 2 ? parts[2] : "";
    }

    /**
     * Whether a fault is in force once one of its samples has ended: after an apply that worked
     * (unless the kind is over at once), and after a revert that failed.
     */
    public static boolean inForceAfter(String label, String code) {
        return APPLIED.equals(code) && !INSTANT_KIND.equals(kind(label)) || REVERT_FAILED.equals(code);
    }

    /** Whether a fault sample is a revert that failed: the fault stays in force. */
    public static boolean revertFailed(String code) {
        return REVERT_FAILED.equals(code);
    }

    /** Whether a fault sample is an apply that worked. */
    public static boolean applied(String code) {
        return APPLIED.equals(code);
    }

    /** The windows of a results file, read for its fault samples alone. */
    public static List<Window> read(Path jtl, Path runDir) throws IOException {
        List<JtlSample> markers = new ArrayList<>();
        try (JtlReader reader = new JtlReader(jtl).faultMarkers(true)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (JtlReader.isFaultMarker(s.label())) {
                    markers.add(s);
                }
            }
        }
        return of(markers, runDir);
    }

    /** The windows from the fault samples a pass over the results file kept, and the run's event logs. */
    public static List<Window> of(List<JtlSample> markers, Path runDir) throws IOException {
        List<Event> events = new ArrayList<>();
        for (JtlSample s : markers) {
            boolean apply = s.responseCode().equals(APPLIED) || s.responseCode().equals("APPLY_FAILED");
            events.add(new Event(apply ? s.end() : s.start(), apply, s.label(), s.responseCode(), s.responseMessage()));
        }
        boolean fromSamples = !events.isEmpty();
        for (Path log : RunFiles.find(runDir, EVENT_LOG)) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", 5);
                if (f.length < 5) {
                    continue;
                }
                boolean apply = f[1].equals("applied");
                boolean revert = f[1].equals("reverted");
                if (!apply && !revert) {
                    continue;
                }
                Event e = new Event(Long.parseLong(f[0]), apply, f[2], f[3], f[4]);
                // the samples carry the same events; the log adds what came after the schedule's thread
                if (!fromSamples || !contains(events, e)) {
                    events.add(e);
                }
            }
        }
        events.sort((a, b) -> Long.compare(a.time(), b.time()));
        List<Window> windows = new ArrayList<>();
        Map<String, Deque<Window>> open = new HashMap<>();
        for (Event e : events) {
            if (e.apply()) {
                Window w = new Window(windows.size() + 1, e.label(), e.time(), -1, e.code().equals(APPLIED), e.message(),
                        null, null);
                windows.add(w);
                open.computeIfAbsent(e.label(), k -> new ArrayDeque<>()).add(w);
            } else {
                Deque<Window> q = open.get(e.label());
                Window w = q == null ? null : q.poll();
                if (w != null) {
                    windows.set(w.number() - 1, new Window(w.number(), w.label(), w.start(), e.time(), w.applied(),
                            w.applyMessage(), e.code(), e.message()));
                }
            }
        }
        return windows;
    }

    /** Faults a schedule never applied (the load ended or the test was stopped first), with why, from its event logs. */
    public static List<String> skipped(Path runDir) throws IOException {
        List<String> skipped = new ArrayList<>();
        for (Path log : RunFiles.find(runDir, EVENT_LOG)) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", 5);
                if (f.length == 5 && f[1].equals("skipped")) {
                    skipped.add(f[2] + " (" + f[4] + ")");
                }
            }
        }
        return skipped;
    }

    private static boolean contains(List<Event> events, Event e) {
        return events.stream().anyMatch(x -> x.apply() == e.apply() && x.label().equals(e.label())
                && x.code().equals(e.code()) && Math.abs(x.time() - e.time()) < 2000);
    }

    private record Event(long time, boolean apply, String label, String code, String message) {
    }
}
