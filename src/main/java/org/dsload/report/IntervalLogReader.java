package org.dsload.report;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * Reads an HdrHistogram interval log (format 1.3, as HistogramLogWriter writes it) one interval at
 * a time, with interval times in whole epoch milliseconds (the log's base time plus each interval's
 * offset, both written to the millisecond). A log cut short, as a killed engine leaves it, is read
 * up to its last whole interval; {@link #problem()} then says what was left out.
 */
public final class IntervalLogReader implements Closeable {
    /** One interval: its start and end in epoch milliseconds and its histogram. */
    public record Interval(long start, long end, Histogram histogram) {
    }

    private final Path file;
    private final BufferedReader in;
    private long baseMillis = Long.MIN_VALUE;
    private long startMillis = Long.MIN_VALUE;
    private String label;
    private String problem;
    private Interval pending;
    private int line;

    public IntervalLogReader(Path file) throws IOException {
        this.file = file;
        this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        pending = read();
    }

    /** The label named by the log's dsload comment, or null when it has none. */
    public String label() {
        return label;
    }

    public Path file() {
        return file;
    }

    /** What could not be read (a line cut short), or null when the whole log was read. */
    public String problem() {
        return problem;
    }

    /** The next interval without consuming it, or null at the end. */
    public Interval peek() {
        return pending;
    }

    /** The next interval, or null at the end (or at the first line that cannot be read). */
    public Interval next() throws IOException {
        Interval current = pending;
        if (current != null) {
            pending = read();
        }
        return current;
    }

    private Interval read() throws IOException {
        String text;
        while ((text = in.readLine()) != null) {
            line++;
            if (text.isBlank()) {
                continue;
            }
            if (text.startsWith("#")) {
                header(text);
                continue;
            }
            if (text.startsWith("\"StartTimestamp\"") || text.startsWith("Tag=")) {
                continue; // the legend; tagged intervals are not dsload's
            }
            Interval interval = parse(text);
            if (interval == null) {
                boolean last = in.readLine() == null;
                problem = file.getFileName() + ": line " + line + (last
                        ? " is cut short (the engine stopped while writing it); read up to the interval before it"
                        : " cannot be read; the intervals from there on are left out");
                return null;
            }
            return interval;
        }
        return null;
    }

    private void header(String text) {
        if (text.startsWith("#[BaseTime: ")) {
            baseMillis = seconds(text.substring("#[BaseTime: ".length()));
        } else if (text.startsWith("#[StartTime: ")) {
            startMillis = seconds(text.substring("#[StartTime: ".length()));
        } else if (text.startsWith("#" + RecordingFormat.LABEL_COMMENT) && label == null) {
            label = text.substring(1 + RecordingFormat.LABEL_COMMENT.length());
        }
    }

    /** Milliseconds from a "seconds.millis ..." header value; Long.MIN_VALUE when unreadable. */
    private static long seconds(String text) {
        int end = 0;
        while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.')) {
            end++;
        }
        try {
            return millis(text.substring(0, end));
        } catch (RuntimeException e) {
            return Long.MIN_VALUE;
        }
    }

    /** "12.345" as 12345, without the rounding of a binary double. */
    private static long millis(String seconds) {
        return new java.math.BigDecimal(seconds.trim()).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_UP)
                .longValueExact();
    }

    private Interval parse(String text) {
        String[] f = text.split(",");
        if (f.length != 4) {
            return null;
        }
        try {
            long base = baseMillis != Long.MIN_VALUE ? baseMillis : startMillis != Long.MIN_VALUE ? startMillis : 0;
            long start = base + millis(f[0]);
            long end = start + millis(f[1]);
            Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(f[3].trim())),
                    0);
            return new Interval(start, end, h);
        } catch (RuntimeException | DataFormatException e) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
