package org.dsload.recording;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.dsload.report.CsvLine;
import org.dsload.report.RecordingFormat;

/**
 * Writes one engine's recording files ({@link RecordingFormat}): an interval log per label (raw
 * and corrected latencies) with HdrHistogram's HistogramLogWriter, and the counts, codes and
 * intervals CSV files. Everything written for an interval reaches the operating system before the
 * next interval starts, so a killed JVM loses at most the interval it was in. A write that fails
 * (a full disk) is thrown, never swallowed.
 */
final class IntervalFiles implements Closeable {
    private final Path folder;
    private final String engine;
    private final long startMillis;
    private final Writer counts;
    private final Writer codes;
    private final Writer intervals;
    private final Map<String, LogFile> logs = new HashMap<>();

    /** An interval log and the stream under it, which keeps the error its PrintStream would hide. */
    private static final class LogFile {
        final Path path;
        final FailureKeeping stream;
        final PrintStream print;
        final HistogramLogWriter writer;

        LogFile(Path path, FailureKeeping stream) {
            this.path = path;
            this.stream = stream;
            this.print = new PrintStream(stream, false, StandardCharsets.UTF_8);
            this.writer = new HistogramLogWriter(print);
        }
    }

    /** Remembers the first write failure, which PrintStream (under HistogramLogWriter) only flags. */
    private static final class FailureKeeping extends FilterOutputStream {
        IOException failure;

        FailureKeeping(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                failure = failure == null ? e : failure;
                throw e;
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                failure = failure == null ? e : failure;
                throw e;
            }
        }
    }

    /** Thrown when a file cannot be written, naming it. */
    static final class WriteFailure extends IOException {
        private static final long serialVersionUID = 1L;
        final Path file;

        WriteFailure(Path file, IOException cause) {
            super("cannot write " + file + ": " + cause.getMessage(), cause);
            this.file = file;
        }
    }

    IntervalFiles(Path folder, String engine, long startMillis) throws WriteFailure {
        this.folder = folder;
        this.engine = engine;
        this.startMillis = startMillis;
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new WriteFailure(folder, e);
        }
        counts = csv(RecordingFormat.COUNTS, RecordingFormat.COUNTS_HEADER);
        codes = csv(RecordingFormat.CODES, RecordingFormat.CODES_HEADER);
        intervals = csv(RecordingFormat.INTERVALS, RecordingFormat.INTERVALS_HEADER);
    }

    Path folder() {
        return folder;
    }

    private Writer csv(String name, List<String> header) throws WriteFailure {
        Path file = folder.resolve(name);
        try {
            Writer w = new OutputStreamWriter(new BufferedOutputStream(Files.newOutputStream(file,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)),
                    StandardCharsets.UTF_8);
            w.write(CsvLine.of(header));
            return w;
        } catch (IOException e) {
            throw new WriteFailure(file, e);
        }
    }

    /** Writes one label's interval; nothing for an interval without samples. */
    void write(String label, IntervalTally t, long start, long end) throws WriteFailure {
        long samples = t.samples();
        if (samples == 0) {
            return;
        }
        writeHistogram(label, RecordingFormat.RAW_SUFFIX, "latency in microseconds from the start of each sample",
                t.raw, start, end);
        if (t.corrected.getTotalCount() > 0) {
            writeHistogram(label, RecordingFormat.CORRECTED_SUFFIX,
                    "latency in microseconds from the intended start of each sample (arrival schedule)", t.corrected,
                    start, end);
        }
        long scheduled = t.scheduled.sum();
        StringBuilder arrivals = new StringBuilder();
        new TreeMap<>(t.arrivals).forEach((second, n) -> arrivals.append(arrivals.length() == 0 ? "" : " ")
                .append(second).append(':').append(n.sum()));
        List<Object> row = List.of(label, start, end, samples, t.requests.sum(), t.failures.sum(), t.bytesSent.sum(),
                t.bytesReceived.sum(), t.elapsedMillis(), t.firstStart.get(), t.lastStart.get(), t.lastEnd.get(),
                scheduled, t.late.sum(), t.dropped.sum(), scheduled == 0 ? "" : t.firstIntended.get(),
                scheduled == 0 ? "" : t.lastIntended.get(), scheduled == 0 ? "" : t.firstScheduled.get(),
                scheduled == 0 ? "" : t.lastScheduled.get(), arrivals);
        write(counts, RecordingFormat.COUNTS, CsvLine.of(row));
        List<String> lines = new ArrayList<>();
        t.codes.forEach((code, n) -> {
            long ok = n.succeeded.sum();
            if (ok > 0) {
                lines.add(CsvLine.of(List.of(label, start, code, true, ok, "", "")));
            }
            n.failed.forEach((message, failed) -> {
                LongAdder wire = n.failedWire.get(message);
                lines.add(CsvLine.of(List.of(label, start, code, false, failed.sum(), message,
                        wire == null ? failed.sum() : wire.sum())));
            });
        });
        for (String line : lines) {
            write(codes, RecordingFormat.CODES, line);
        }
    }

    private void writeHistogram(String label, String suffix, String what, Histogram h, long start, long end)
            throws WriteFailure {
        String name = RecordingFormat.fileName(label) + suffix;
        LogFile log = logs.get(name);
        if (log == null) {
            Path path = folder.resolve(name);
            try {
                log = new LogFile(path, new FailureKeeping(new BufferedOutputStream(Files.newOutputStream(path,
                        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))));
            } catch (IOException e) {
                throw new WriteFailure(path, e);
            }
            logs.put(name, log);
            log.writer.outputComment(RecordingFormat.LABEL_COMMENT + label.replace('\n', ' ').replace('\r', ' '));
            log.writer.outputComment("dsload engine " + engine + ": " + what);
            log.writer.outputLogFormatVersion();
            log.writer.outputStartTime(startMillis);
            log.writer.setBaseTime(startMillis);
            log.writer.outputBaseTime(startMillis);
            log.writer.outputLegend();
        }
        h.setStartTimeStamp(start);
        h.setEndTimeStamp(end);
        log.writer.outputIntervalHistogram(h);
        check(log);
    }

    private static void check(LogFile log) throws WriteFailure {
        if (log.print.checkError()) {
            IOException cause = log.stream.failure != null ? log.stream.failure : new IOException("write failed");
            throw new WriteFailure(log.path, cause);
        }
    }

    private void write(Writer w, String name, String line) throws WriteFailure {
        try {
            w.write(line);
        } catch (IOException e) {
            throw new WriteFailure(folder.resolve(name), e);
        }
    }

    /** Closes an interval of the engine, with or without samples, and hands everything to the system. */
    void endInterval(long start, long end) throws WriteFailure {
        write(intervals, RecordingFormat.INTERVALS, CsvLine.of(List.of(start, end)));
        flush(counts, RecordingFormat.COUNTS);
        flush(codes, RecordingFormat.CODES);
        flush(intervals, RecordingFormat.INTERVALS);
        for (LogFile log : logs.values()) {
            log.print.flush();
            check(log);
        }
    }

    private void flush(Writer w, String name) throws WriteFailure {
        try {
            w.flush();
        } catch (IOException e) {
            throw new WriteFailure(folder.resolve(name), e);
        }
    }

    @Override
    public void close() {
        for (Writer w : new Writer[] {counts, codes, intervals}) {
            try {
                w.close();
            } catch (IOException e) {
                // already reported by the flush that failed
            }
        }
        logs.values().forEach(l -> l.print.close());
    }
}
