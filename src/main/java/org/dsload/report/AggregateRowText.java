package org.dsload.report;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * The request text (sampler data) of a histograms-mode aggregate row: what the row stands for, and
 * its interval's latency histograms (compressed and base64, as in the engine's interval log), so a
 * listener that gets the row (the GUI's dsload Summary, on the engine or on the master of a
 * distributed run: the sample sender modes keep a sample's request text) can show the second's
 * percentiles. Results files hold it only when told to save sampler data. Beside them, the
 * interval's exact counts that the row's own fields cannot hold ({@link Counts}): late and dropped
 * arrivals, and the failed requests of every response code (the row has one code).
 */
public final class AggregateRowText {
    private static final String RAW = "raw ";
    private static final String CORRECTED = "corrected ";
    private static final String LATE = "late ";
    private static final String DROPPED = "dropped ";
    private static final String FAILED = "failed ";

    /**
     * What an interval's row stands for beyond its histogram and its row's fields.
     *
     * @param late     scheduled arrivals that started late (one per sample, as the summary counts them)
     * @param dropped  scheduled arrivals the generator skipped
     * @param failures failed requests by response code, in the order they are to be listed
     */
    public record Counts(long late, long dropped, Map<String, Long> failures) {
        public Counts {
            failures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failures));
        }
    }

    private AggregateRowText() {
    }

    public static String of(String label, long requests, String engine, Histogram raw, Histogram corrected) {
        return of(label, requests, engine, raw, corrected, null);
    }

    /** @param counts the interval's late, dropped and failures by code, or null for none */
    public static String of(String label, long requests, String engine, Histogram raw, Histogram corrected,
            Counts counts) {
        StringBuilder text = new StringBuilder("dsload histograms mode: this row stands for ").append(requests)
                .append(" requests of '").append(label).append("' in one interval on engine ").append(engine)
                .append(".\nLatency histograms (HdrHistogram, microseconds, compressed and base64, as in the "
                        + "engine's interval log):\n");
        text.append(RAW).append(encode(raw)).append('\n');
        if (corrected != null && corrected.getTotalCount() > 0) {
            text.append(CORRECTED).append(encode(corrected)).append('\n');
        }
        if (counts != null) {
            text.append("Arrivals late and dropped, failed requests by response code:\n");
            text.append(LATE).append(counts.late()).append('\n').append(DROPPED).append(counts.dropped()).append('\n');
            counts.failures().forEach((code, n) -> text.append(FAILED).append(n).append(' ')
                    .append(code.replaceAll("[\r\n]+", " ")).append('\n'));
        }
        return text.toString();
    }

    /**
     * The counts of such a text, or null when it has none (an engine of an older dsload, or the
     * text stripped by the sample sender). A response code with a line break reads with a space.
     */
    public static Counts counts(String text) {
        if (text == null) {
            return null;
        }
        long late = -1;
        long dropped = -1;
        Map<String, Long> failures = new LinkedHashMap<>();
        try {
            for (String line : text.split("\n")) {
                if (line.startsWith(LATE)) {
                    late = Long.parseLong(line.substring(LATE.length()).trim());
                } else if (line.startsWith(DROPPED)) {
                    dropped = Long.parseLong(line.substring(DROPPED.length()).trim());
                } else if (line.startsWith(FAILED)) {
                    int space = line.indexOf(' ', FAILED.length());
                    String n = space < 0 ? line.substring(FAILED.length()) : line.substring(FAILED.length(), space);
                    failures.merge(space < 0 ? "" : line.substring(space + 1), Long.parseLong(n.trim()), Long::sum);
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return late < 0 || dropped < 0 ? null : new Counts(late, dropped, failures);
    }

    private static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The raw histogram of such a text, or null (no text, or stripped by the sample sender). */
    public static Histogram raw(String text) {
        return histogram(text, RAW);
    }

    /** The corrected histogram of such a text, or null. */
    public static Histogram corrected(String text) {
        return histogram(text, CORRECTED);
    }

    private static Histogram histogram(String text, String prefix) {
        if (text == null) {
            return null;
        }
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                try {
                    return Histogram.decodeFromCompressedByteBuffer(
                            ByteBuffer.wrap(Base64.getDecoder().decode(line.substring(prefix.length()).trim())), 0);
                } catch (DataFormatException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
