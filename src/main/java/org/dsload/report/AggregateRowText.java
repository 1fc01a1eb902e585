package org.dsload.report;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * The request text (sampler data) of a histograms-mode aggregate row: what the row stands for, and
 * its interval's latency histograms (compressed and base64, as in the engine's interval log), so a
 * listener that gets the row (the GUI's dsload Summary, on the engine or on the master of a
 * distributed run: the sample sender modes keep a sample's request text) can show the second's
 * percentiles. Results files hold it only when told to save sampler data.
 */
public final class AggregateRowText {
    private static final String RAW = "raw ";
    private static final String CORRECTED = "corrected ";

    private AggregateRowText() {
    }

    public static String of(String label, long requests, String engine, Histogram raw, Histogram corrected) {
        StringBuilder text = new StringBuilder("dsload histograms mode: this row stands for ").append(requests)
                .append(" requests of '").append(label).append("' in one interval on engine ").append(engine)
                .append(".\nLatency histograms (HdrHistogram, microseconds, compressed and base64, as in the "
                        + "engine's interval log):\n");
        text.append(RAW).append(encode(raw)).append('\n');
        if (corrected != null && corrected.getTotalCount() > 0) {
            text.append(CORRECTED).append(encode(corrected)).append('\n');
        }
        return text.toString();
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
