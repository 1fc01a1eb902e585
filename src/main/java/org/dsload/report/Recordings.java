package org.dsload.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.dsload.core.format.RunFiles;

/**
 * What histograms mode recorded in a run ({@link RecordingFormat}): every engine's folder found in
 * the run folder and in the slaves' folders, and, for an engine whose folder is not at hand (a
 * slave on another machine that could not be reached after the run), the aggregate rows the
 * results file holds for it, which give its counts but no latencies.
 *
 * <p>Interval logs are read as a stream, never all at once: a pass visits every interval engine by
 * engine ({@link #forEach}), or second by second across engines ({@link #bySecond}), so memory
 * stays bounded whatever the run's length. An interval is taken only when all its files agree (its
 * counts line, its codes and its histograms); one that a killed engine left half written is left out
 * and named in {@link #problems()}.
 */
public final class Recordings {
    /** An aggregate row of the results file (histograms mode). */
    public record AggregateRow(String engine, String label, long start, long end, long requests, long failures,
            long bytesSent, long bytesReceived, long elapsedMillis, String code, boolean success) {
    }

    private record Key(String label, long start) {
    }

    private record Counted(long end, RecordedInterval.Counts counts) {
    }

    /** One engine: its folder (null when only the results file tells of it) and what was read of it eagerly. */
    public static final class Engine {
        private final String name;
        private final Path folder;
        private final long clockOffset;
        private final Map<Key, Counted> counts = new HashMap<>();
        private final Map<Key, List<RecordedInterval.Code>> codes = new HashMap<>();
        private final List<long[]> closed = new ArrayList<>();
        private final List<AggregateRow> rows = new ArrayList<>();
        private final Map<String, Path> logs = new TreeMap<>();

        private Engine(String name, Path folder, long clockOffset) {
            this.name = name;
            this.folder = folder;
            this.clockOffset = clockOffset;
        }

        public String name() {
            return name;
        }

        /** The engine's folder, or null when its files are not at hand. */
        public Path folder() {
            return folder;
        }

        /** How far the engine's clock was ahead of the runner's, in ms (0 when not measured). */
        public long clockOffset() {
            return clockOffset;
        }

        /** Every interval the engine closed, [start, end] on the runner's clock. */
        public List<long[]> closedIntervals() {
            return Collections.unmodifiableList(closed);
        }

        public boolean hasFiles() {
            return folder != null;
        }
    }

    private final List<Engine> engines;
    private final Set<String> problems = new LinkedHashSet<>();

    private Recordings(List<Engine> engines) {
        this.engines = engines;
    }

    /** The recordings of a run, with the results file's aggregate rows for engines whose files are not at hand. */
    public static Recordings read(Path runDir, List<AggregateRow> rows) throws IOException {
        List<Engine> engines = new ArrayList<>();
        Map<String, Engine> byName = new HashMap<>();
        Recordings recordings = new Recordings(engines);
        for (Path root : RunFiles.find(runDir, RecordingFormat.FOLDER)) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                    Engine e = recordings.load(dir);
                    if (byName.putIfAbsent(e.name, e) == null) {
                        engines.add(e);
                    } else {
                        recordings.problems.add("two folders for engine " + e.name + ": " + dir + " is left out");
                    }
                }
            }
        }
        for (AggregateRow row : rows) {
            Engine e = byName.computeIfAbsent(row.engine(), name -> {
                Engine rowsOnly = new Engine(name, null, 0);
                engines.add(rowsOnly);
                return rowsOnly;
            });
            if (e.folder == null || !e.counts.containsKey(new Key(row.label(), row.start()))) {
                e.rows.add(row);
            }
        }
        return recordings;
    }

    /** No recording: a run recorded as rows. */
    public static Recordings none() {
        return new Recordings(new ArrayList<>());
    }

    public boolean isEmpty() {
        return engines.isEmpty();
    }

    public List<Engine> engines() {
        return Collections.unmodifiableList(engines);
    }

    /** What could not be read, as lines for the summary; complete after a pass. */
    public List<String> problems() {
        return new ArrayList<>(problems);
    }

    private Engine load(Path dir) throws IOException {
        long offset = 0;
        Path offsetFile = dir.resolve(RecordingFormat.CLOCK_OFFSET);
        if (Files.isRegularFile(offsetFile)) {
            try {
                offset = Long.parseLong(Files.readString(offsetFile, StandardCharsets.UTF_8).trim());
            } catch (NumberFormatException e) {
                problems.add(offsetFile + " holds no number of milliseconds; the engine's clock is taken as the runner's");
            }
        }
        Engine e = new Engine(dir.getFileName().toString(), dir, offset);
        readCsv(dir.resolve(RecordingFormat.COUNTS), f -> {
            long start = Long.parseLong(f.get(1));
            Map<Long, Long> arrivals = new TreeMap<>();
            for (String pair : f.get(19).trim().split(" ")) {
                if (!pair.isEmpty()) {
                    int colon = pair.indexOf(':');
                    arrivals.merge(Long.parseLong(pair.substring(0, colon)) - Math.round(e.clockOffset / 1000.0),
                            Long.parseLong(pair.substring(colon + 1)), Long::sum);
                }
            }
            long scheduled = Long.parseLong(f.get(12));
            RecordedInterval.Counts c = new RecordedInterval.Counts(n(f, 3), n(f, 4), n(f, 5), n(f, 6), n(f, 7), n(f, 8),
                    n(f, 9) - e.clockOffset, n(f, 10) - e.clockOffset, n(f, 11) - e.clockOffset, scheduled, n(f, 13),
                    n(f, 14), scheduled == 0 ? 0 : n(f, 15) - e.clockOffset * 1000,
                    scheduled == 0 ? 0 : n(f, 16) - e.clockOffset * 1000, scheduled == 0 ? 0 : n(f, 17) - e.clockOffset,
                    scheduled == 0 ? 0 : n(f, 18) - e.clockOffset, arrivals);
            e.counts.put(new Key(f.get(0), start), new Counted(Long.parseLong(f.get(2)), c));
        }, RecordingFormat.COUNTS_HEADER.size());
        readCsv(dir.resolve(RecordingFormat.CODES), f -> e.codes.computeIfAbsent(new Key(f.get(0), Long.parseLong(f.get(1))),
                k -> new ArrayList<>()).add(new RecordedInterval.Code(f.get(2), Boolean.parseBoolean(f.get(3)), n(f, 4),
                f.get(5), f.size() > 6 && !f.get(6).isBlank() ? n(f, 6) : n(f, 4))),
                RecordingFormat.CODES_HEADER.size() - 1, RecordingFormat.CODES_HEADER.size());
        readCsv(dir.resolve(RecordingFormat.INTERVALS), f -> e.closed.add(new long[] {n(f, 0) - e.clockOffset,
            n(f, 1) - e.clockOffset}), RecordingFormat.INTERVALS_HEADER.size());
        try (Stream<Path> files = Files.list(dir)) {
            for (Path log : files.filter(f -> f.getFileName().toString().endsWith(RecordingFormat.RAW_SUFFIX)
                    && !f.getFileName().toString().endsWith(RecordingFormat.CORRECTED_SUFFIX)).sorted().toList()) {
                String base = log.getFileName().toString();
                e.logs.put(base.substring(0, base.length() - RecordingFormat.RAW_SUFFIX.length()), log);
            }
        }
        return e;
    }

    private static long n(List<String> fields, int i) {
        return Long.parseLong(fields.get(i).trim());
    }

    private interface Row {
        void accept(List<String> fields);
    }

    private void readCsv(Path file, Row row, int columns) throws IOException {
        readCsv(file, row, columns, columns);
    }

    /** Reads a file whose lines have {@code fewest} to {@code columns} fields (a column added later is optional). */
    private void readCsv(Path file, Row row, int fewest, int columns) throws IOException {
        if (!Files.isRegularFile(file)) {
            problems.add(file + " is missing");
            return;
        }
        try (CsvReader csv = new CsvReader(Files.newBufferedReader(file, StandardCharsets.UTF_8))) {
            csv.next();
            List<String> f;
            int line = 1;
            while ((f = csv.next()) != null) {
                line++;
                if (f.size() == 1 && f.get(0).isEmpty()) {
                    continue;
                }
                try {
                    if (f.size() < fewest || f.size() > columns) {
                        throw new IllegalArgumentException("columns");
                    }
                    row.accept(f);
                } catch (RuntimeException cut) {
                    problems.add(file.getParent().getFileName() + "/" + file.getFileName() + ": line " + line
                            + " cannot be read (cut short when the engine stopped?); left out");
                }
            }
        }
    }

    /** Visits every interval, engine by engine and label by label, each in time order. */
    public void forEach(Consumer<RecordedInterval> visitor) throws IOException {
        for (Engine e : engines) {
            for (IntervalStream s : streams(e)) {
                try (s) {
                    RecordedInterval i;
                    while ((i = s.next()) != null) {
                        visitor.accept(i);
                    }
                }
            }
        }
    }

    /**
     * Visits the intervals second by second (by the second their start falls in, on the runner's
     * clock), all engines and labels of one second together, seconds in order.
     */
    public void bySecond(Consumer<List<RecordedInterval>> visitor) throws IOException {
        List<IntervalStream> streams = new ArrayList<>();
        for (Engine e : engines) {
            streams.addAll(streams(e));
        }
        PriorityQueue<IntervalStream> queue = new PriorityQueue<>(Comparator.comparingLong(IntervalStream::second));
        try {
            for (IntervalStream s : streams) {
                if (s.peek() != null) {
                    queue.add(s);
                }
            }
            while (!queue.isEmpty()) {
                long second = queue.peek().second();
                List<RecordedInterval> same = new ArrayList<>();
                while (!queue.isEmpty() && queue.peek().second() == second) {
                    IntervalStream s = queue.poll();
                    same.add(s.next());
                    if (s.peek() != null) {
                        queue.add(s);
                    }
                }
                visitor.accept(same);
            }
        } finally {
            for (IntervalStream s : streams) {
                s.close();
            }
        }
    }

    private List<IntervalStream> streams(Engine e) throws IOException {
        List<IntervalStream> streams = new ArrayList<>();
        Set<String> labelsWithLogs = new java.util.HashSet<>();
        for (Map.Entry<String, Path> log : e.logs.entrySet()) {
            IntervalStream s = new FileStream(e, log.getValue(), e.folder.resolve(log.getKey()
                    + RecordingFormat.CORRECTED_SUFFIX));
            labelsWithLogs.add(((FileStream) s).label);
            streams.add(s);
        }
        Map<String, List<Key>> orphans = new TreeMap<>();
        for (Key k : e.counts.keySet()) {
            if (!labelsWithLogs.contains(k.label())) {
                orphans.computeIfAbsent(k.label(), l -> new ArrayList<>()).add(k);
            }
        }
        orphans.forEach((label, keys) -> problems.add(e.name + ": no interval log for label '" + label + "' ("
                + keys.size() + " intervals counted); its samples are left out"));
        if (!e.rows.isEmpty()) {
            streams.add(new RowStream(e));
        }
        return streams;
    }

    /** One source of intervals in time order. */
    private abstract static class IntervalStream implements AutoCloseable {
        private RecordedInterval pending;
        private boolean started;

        abstract RecordedInterval read() throws IOException;

        RecordedInterval peek() {
            if (!started) {
                started = true;
                try {
                    pending = read();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return pending;
        }

        RecordedInterval next() throws IOException {
            RecordedInterval current = peek();
            pending = current == null ? null : read();
            return current;
        }

        long second() {
            return Math.floorDiv(peek().start(), 1000);
        }

        @Override
        public void close() throws IOException {
        }
    }

    /** One label's interval logs on one engine, joined with its counts and codes. */
    private final class FileStream extends IntervalStream {
        private final Engine engine;
        private final IntervalLogReader raw;
        private final IntervalLogReader corrected;
        final String label;

        FileStream(Engine engine, Path rawLog, Path correctedLog) throws IOException {
            this.engine = engine;
            this.raw = new IntervalLogReader(rawLog);
            this.corrected = Files.isRegularFile(correctedLog) ? new IntervalLogReader(correctedLog) : null;
            this.label = raw.label() != null ? raw.label() : rawLog.getFileName().toString();
        }

        @Override
        RecordedInterval read() throws IOException {
            IntervalLogReader.Interval r;
            while ((r = raw.next()) != null) {
                Key key = new Key(label, r.start());
                Counted counted = engine.counts.get(key);
                IntervalLogReader.Interval c = null;
                while (corrected != null && corrected.peek() != null && corrected.peek().start() <= r.start()) {
                    IntervalLogReader.Interval candidate = corrected.next();
                    c = candidate.start() == r.start() ? candidate : null;
                }
                List<RecordedInterval.Code> codes = engine.codes.getOrDefault(key, List.of());
                String missing = counted == null ? "its counts line"
                        : counted.counts().scheduled() > 0 && c == null ? "its corrected latencies"
                        : codes.stream().mapToLong(RecordedInterval.Code::requests).sum() != counted.counts().requests()
                                ? "its response codes" : null;
                if (missing != null) {
                    problems.add(engine.name + ": interval of '" + label + "' starting " + Durations.timestamp(r.start())
                            + " lacks " + missing + " (cut short when the engine stopped?); left out");
                    continue;
                }
                return new RecordedInterval(engine.name, label, r.start() - engine.clockOffset,
                        counted.end() - engine.clockOffset, counted.counts(), codes, r.histogram(),
                        c == null ? null : c.histogram());
            }
            if (raw.problem() != null) {
                problems.add(engine.name + ": " + raw.problem());
            }
            if (corrected != null && corrected.problem() != null) {
                problems.add(engine.name + ": " + corrected.problem());
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            raw.close();
            if (corrected != null) {
                corrected.close();
            }
        }
    }

    /** The results file's aggregate rows of an engine whose files are not at hand: counts, no latencies. */
    private static final class RowStream extends IntervalStream {
        private final Engine engine;
        private final List<AggregateRow> rows;
        private int next;

        RowStream(Engine engine) {
            this.engine = engine;
            this.rows = new ArrayList<>(engine.rows);
            rows.sort(Comparator.comparingLong(AggregateRow::start));
        }

        @Override
        RecordedInterval read() {
            if (next >= rows.size()) {
                return null;
            }
            AggregateRow r = rows.get(next++);
            long failures = Math.min(r.failures(), r.requests());
            List<RecordedInterval.Code> codes = new ArrayList<>();
            if (failures > 0) {
                codes.add(new RecordedInterval.Code(r.code(), false, failures, "(message in the engine's files)"));
            }
            if (failures < r.requests()) {
                codes.add(new RecordedInterval.Code(failures > 0 ? "(not in the results file)" : r.code(), true,
                        r.requests() - failures, ""));
            }
            long start = r.start() - engine.clockOffset;
            long end = r.end() - engine.clockOffset;
            RecordedInterval.Counts c = new RecordedInterval.Counts(r.requests(), r.requests(), failures, r.bytesSent(),
                    r.bytesReceived(), r.elapsedMillis(), start, Math.max(start, end - 1), end, 0, 0, 0, 0, 0, 0, 0,
                    Map.of());
            return new RecordedInterval(engine.name, r.label(), start, end, c, codes, null, null);
        }
    }
}
