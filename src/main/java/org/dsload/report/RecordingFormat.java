package org.dsload.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What an engine leaves in histograms mode ({@code dsload.record=histograms}), shared by the engine
 * that writes it (the recording package) and the reports that read it ({@link Recordings}).
 *
 * <p>In {@code <run folder>/histograms/<engine>/}, second by second:
 * <ul>
 * <li>{@code <label>.hlog}: HdrHistogram interval log (its own format, readable by
 * HistogramLogProcessor) of each sample's latency in microseconds, {@value HdrLatency#DIGITS}
 * significant digits; {@code <label>.corrected.hlog} the same from the intended start, for samples
 * under an arrival schedule. The label is in the file's first comment line; the file name encodes it
 * ({@link #fileName}).</li>
 * <li>{@value #COUNTS}: per label and interval the counts, bytes and times ({@link #COUNTS_HEADER});</li>
 * <li>{@value #CODES}: per label and interval the requests per response code, and for failures per
 * message with the requests as sent beside them, a failed batch of points counting one
 * ({@link #CODES_HEADER}; files without that last column read it as the requests);</li>
 * <li>{@value #INTERVALS}: every interval the engine closed, with or without samples, so a report
 * can tell an idle engine from a lost one.</li>
 * </ul>
 * Times are the engine's clock in epoch milliseconds; an intervals' start and end are the same
 * instants in every file. A file {@value #CLOCK_OFFSET} beside them, when the runner measured it,
 * holds how far the engine's clock was ahead of the runner's, in milliseconds.
 *
 * <p>The results file gets one row per label, engine and interval: SampleCount = requests,
 * ErrorCount = failures, and in the {@code dsload_timing} column
 * {@code hist:<engine>:<interval start ms>:<interval end ms>} ({@link #AGGREGATE_PREFIX}).
 */
public final class RecordingFormat {
    public static final String FOLDER = "histograms";
    public static final String RAW_SUFFIX = ".hlog";
    public static final String CORRECTED_SUFFIX = ".corrected.hlog";
    public static final String COUNTS = "counts.csv";
    public static final String CODES = "codes.csv";
    public static final String INTERVALS = "intervals.csv";
    public static final String CLOCK_OFFSET = "clock-offset-ms";
    /** The comment line of an interval log that names its label. */
    public static final String LABEL_COMMENT = "dsload label: ";
    /** Start of the {@code dsload_timing} value of an aggregate row. */
    public static final String AGGREGATE_PREFIX = "hist:";
    /** Thread name of aggregate rows (after {@code <host:port>-} on a slave). */
    public static final String AGGREGATE_THREAD = "dsload histograms";

    public static final List<String> COUNTS_HEADER = List.of("label", "start_ms", "end_ms", "samples", "requests",
            "failures", "bytes_sent", "bytes_received", "elapsed_ms", "first_start_ms", "last_start_ms", "last_end_ms",
            "scheduled", "late", "dropped", "first_intended_us", "last_intended_us", "first_scheduled_ms",
            "last_scheduled_ms", "arrivals");
    public static final List<String> CODES_HEADER = List.of("label", "start_ms", "code", "success", "requests", "message",
            "wire_requests");
    public static final List<String> INTERVALS_HEADER = List.of("start_ms", "end_ms");

    private static final int MAX_NAME = 180;

    private RecordingFormat() {
    }

    /**
     * The file name (without suffix) of a label's logs: letters, digits, '-' and '_' as they are,
     * every other byte of its UTF-8 form as %XX, so two labels never share a file; a very long
     * label is cut and a hash of the whole label added.
     */
    public static String fileName(String label) {
        StringBuilder name = new StringBuilder();
        for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
                name.append((char) c);
            } else {
                name.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
            }
        }
        if (name.isEmpty()) {
            return "%";
        }
        if (name.length() <= MAX_NAME) {
            return name.toString();
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(label.getBytes(StandardCharsets.UTF_8));
            return name.substring(0, MAX_NAME - 17) + "~" + HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }


    /** The {@code dsload_timing} value of an engine's aggregate row for one interval. */
    public static String aggregateTiming(String engine, long startMillis, long endMillis) {
        return AGGREGATE_PREFIX + engine + ":" + startMillis + ":" + endMillis;
    }

    /** The engine named in an aggregate row's timing value, or null when the value is not one. */
    public static String aggregateEngine(String timing) {
        if (timing == null || !timing.startsWith(AGGREGATE_PREFIX)) {
            return null;
        }
        int end = timing.indexOf(':', AGGREGATE_PREFIX.length());
        return end < 0 ? timing.substring(AGGREGATE_PREFIX.length()) : timing.substring(AGGREGATE_PREFIX.length(), end);
    }
}
