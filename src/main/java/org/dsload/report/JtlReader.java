package org.dsload.report;

import java.io.Closeable;
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

import org.dsload.core.format.BatchTiming;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.JtlColumns;
import org.dsload.core.format.TimingValue;

/**
 * Streams a JMeter CSV results file ({@link CsvReader}). The header line names the columns, so any set of saved
 * fields works as long as timeStamp, elapsed, label and success are among them. Rows that cannot
 * be read (a line cut short when a run was killed) are skipped and counted, never fatal. Rows of
 * a fault schedule (labels {@code fault:...}) mark when faults were applied and reverted; they are
 * not requests, so they are skipped too unless the reader is asked for them ({@link #faultMarkers}).
 */
public final class JtlReader implements Closeable {
    /** Labels of a fault schedule's samples start with this. */
    public static final String FAULT_PREFIX = "fault:";
    private final CsvReader in;
    private final Path file;
    private final Map<String, Integer> columns = new HashMap<>();
    private final int timeStamp;
    private final int elapsed;
    private final int label;
    private final int success;
    private final int code;
    private final int message;
    private final int bytes;
    private final int sentBytes;
    private final int latency;
    private final int connect;
    private final int sampleCount;
    private final int errorCount;
    private final int hostname;
    private final int threadName;
    private final int failureMessage;
    private final int timing;
    private long malformed;
    private long rows;
    /** Requests of a batch row not yet returned (see {@link BatchRows}). */
    private final Deque<JtlSample> pending = new ArrayDeque<>();
    private boolean faultMarkers;
    private long markerRows;
    /** Aggregate rows of histograms mode, kept apart from the samples (see {@link #aggregates()}). */
    private final List<Recordings.AggregateRow> aggregates = new ArrayList<>();

    public JtlReader(Path file) throws IOException {
        this.file = file;
        this.in = new CsvReader(Files.newBufferedReader(file, StandardCharsets.UTF_8));
        List<String> header = in.next();
        if (header == null) {
            in.close();
            throw new IOException(file + " is empty: the run wrote no samples");
        }
        if (!header.isEmpty() && header.get(0).startsWith("<?xml")) {
            in.close();
            throw new IOException(file + " is an XML results file; save results as CSV "
                    + "(jmeter.save.saveservice.output_format=csv)");
        }
        for (int i = 0; i < header.size(); i++) {
            columns.put(header.get(i).trim(), i);
        }
        timeStamp = required("timeStamp");
        elapsed = required("elapsed");
        label = required("label");
        success = required("success");
        code = optional("responseCode");
        message = optional("responseMessage");
        bytes = optional("bytes");
        sentBytes = optional("sentBytes");
        latency = optional("Latency");
        connect = optional("Connect");
        sampleCount = optional("SampleCount");
        errorCount = optional("ErrorCount");
        hostname = optional("Hostname");
        threadName = optional("threadName");
        failureMessage = optional("failureMessage");
        timing = optional(JtlColumns.TIMING);
    }

    private int required(String name) throws IOException {
        Integer index = columns.get(name);
        if (index == null) {
            in.close();
            throw new IOException(file + " has no column '" + name + "' in its header line; save results as CSV "
                    + "with field names (jmeter.save.saveservice.print_field_names=true)");
        }
        return index;
    }

    private int optional(String name) {
        return columns.getOrDefault(name, -1);
    }

    /** Returns the fault schedule's marker rows too (for the fault phase report); call before the first {@link #next}. */
    public JtlReader faultMarkers(boolean include) {
        this.faultMarkers = include;
        return this;
    }

    /** Marker rows of a fault schedule skipped so far. */
    public long markerRows() {
        return markerRows;
    }

    /** Whether a label is a fault schedule's marker ({@code fault:<kind>:<target>}) rather than a request. */
    public static boolean isFaultMarker(String label) {
        return label.startsWith(FAULT_PREFIX);
    }

    public boolean hasColumn(String name) {
        return columns.containsKey(name);
    }

    /**
     * The aggregate rows read so far: in histograms mode an engine writes one row per label and
     * interval ({@link RecordingFormat}); they stand for requests whose latencies are in the engine's
     * interval logs, so {@link #next} never returns them as samples.
     */
    public List<Recordings.AggregateRow> aggregates() {
        return aggregates;
    }

    /** Rows skipped because they could not be read. */
    public long malformedRows() {
        return malformed;
    }

    /** Rows read successfully. */
    public long rows() {
        return rows;
    }

    /**
     * The next sample, or null at the end of the file. A row that stands for several requests timed
     * on their own ({@link BatchTiming}) comes back as one sample per request.
     */
    public JtlSample next() throws IOException {
        if (!pending.isEmpty()) {
            return pending.poll();
        }
        while (true) {
            List<String> f = in.next();
            if (f == null) {
                return null;
            }
            if (f.size() == 1 && f.get(0).isEmpty()) {
                continue;
            }
            if (!faultMarkers && label < f.size() && f.get(label).startsWith(FAULT_PREFIX)) {
                markerRows++;
                continue;
            }
            if (label < f.size() && GaugeTable.isStreamLabel(f.get(label))) {
                continue; // a slave's gauge lines, which a results file of dsload's never holds: no request
            }
            try {
                long start = Long.parseLong(f.get(timeStamp));
                long millis = Long.parseLong(f.get(elapsed));
                String timingText = text(f, timing);
                String engine = RecordingFormat.aggregateEngine(timingText);
                if (engine != null) {
                    aggregates.add(aggregate(f, engine, timingText, start, millis));
                    rows++;
                    continue;
                }
                List<JtlSample> requests = requests(start, millis, timingText, f.get(label), text(f, code),
                        text(f, message), Boolean.parseBoolean(f.get(success)), number(f, bytes), number(f, sentBytes),
                        number(f, latency), number(f, connect),
                        sampleCount < 0 ? 1 : (int) Math.max(1, number(f, sampleCount)), text(f, hostname),
                        text(f, threadName), text(f, failureMessage));
                rows++;
                if (requests.size() == 1) {
                    return requests.get(0);
                }
                pending.addAll(requests);
                return pending.poll();
            } catch (RuntimeException e) {
                malformed++;
            }
        }
    }

    private Recordings.AggregateRow aggregate(List<String> f, String engine, String timingText, long start, long millis) {
        String[] parts = timingText.split(":");
        long end = parts.length >= 4 ? Long.parseLong(parts[parts.length - 1]) : start + 1000;
        long requests = sampleCount < 0 ? 1 : Math.max(1, number(f, sampleCount));
        boolean ok = Boolean.parseBoolean(f.get(success));
        long failures = errorCount >= 0 ? number(f, errorCount) : ok ? 0 : requests;
        return new Recordings.AggregateRow(engine, f.get(label), start, end, requests, failures, number(f, sentBytes),
                number(f, bytes), millis, text(f, code), ok);
    }

    /**
     * The requests of one results row, as the reports read them: the row itself with its microseconds,
     * intended start and dropped arrivals from its {@code dsload_timing} value, or one sample per request
     * of a batch row ({@link BatchTiming}). For a file's rows and for a listener's live samples alike.
     */
    public static List<JtlSample> requests(long start, long millis, String timingText, String label, String code,
            String message, boolean success, long bytes, long sentBytes, long latency, long connect, int sampleCount,
            String hostname, String threadName, String failureMessage) {
        String timing = timingText == null ? "" : timingText;
        List<BatchTiming.Entry> batch = BatchTiming.parse(timing, start, millis);
        TimingValue t = batch == null ? TimingValue.parse(timing, start, millis) : null;
        boolean micro = t != null && t.hasElapsed();
        JtlSample sample = new JtlSample(start, millis, micro ? t.elapsedMicros() : millis * 1000, label, code, message,
                success, bytes, sentBytes, latency, connect, sampleCount, hostname, threadName, failureMessage, micro,
                t != null && t.hasDelay() ? t.delayMicros() : TimingValue.NONE, t == null ? 0 : t.dropped());
        return batch == null ? List.of(sample) : BatchRows.expand(sample, BatchTiming.rowStart(timing), batch);
    }

    /**
     * The microseconds of a {@code <start ms>:<µs>...} timing value, or -1 when there is none or it
     * belongs to an earlier sample of the thread (see {@link TimingValue#parse}).
     */
    public static long micros(String timing, long timeStamp, long elapsedMillis) {
        TimingValue t = TimingValue.parse(timing, timeStamp, elapsedMillis);
        return t == null || !t.hasElapsed() ? -1 : t.elapsedMicros();
    }

    private static String text(List<String> fields, int index) {
        return index >= 0 && index < fields.size() ? fields.get(index) : "";
    }

    private static long number(List<String> fields, int index) {
        String value = text(fields, index);
        return value.isEmpty() ? 0 : Long.parseLong(value);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
