package org.dsload.recording;

import java.util.Locale;

import org.dsload.core.format.RunProperties;

/**
 * How an engine records its samples, chosen with the JMeter property {@value RunProperties#RECORD} (on the
 * command line {@code dsload run --record rows|histograms}, or {@code -Jdsload.record=...} for a
 * plan run by hand; a distributed run sends it to every engine).
 */
public enum RecordMode {
    /** A results-file row per sample, as JMeter writes it. The default. */
    ROWS,
    /**
     * Every request of a dsload sampler into HdrHistogram interval logs and per-second counts on the
     * engine's own disk, and one aggregate row per label and second into the results file.
     */
    HISTOGRAMS;


    /**
     * @param value the property's value; empty or null means {@link #ROWS}
     * @throws IllegalArgumentException naming the property and the values it takes
     */
    public static RecordMode parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "rows" -> ROWS;
            case "histograms" -> HISTOGRAMS;
            default -> throw new IllegalArgumentException(RunProperties.RECORD + " must be 'rows' (a results row per sample) or "
                    + "'histograms' (interval logs per label and one row per label and second), got '" + value + "'");
        };
    }

    /** The property value naming this mode. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
