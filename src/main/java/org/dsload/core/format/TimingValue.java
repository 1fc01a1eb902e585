package org.dsload.core.format;

/**
 * The value dsload samplers (and the arrival elements, for other samplers) leave in the
 * {@value JtlColumns#TIMING} column:
 * {@code <start ms>:<elapsed µs>[:<intended-start delay µs>[:<arrivals dropped before>]]}.
 *
 * <ul>
 * <li>start ms: the sample's start as JMeter records it, so a report can tell a value set by
 * this sample from one left over by an earlier sample of the thread;</li>
 * <li>elapsed µs: the driver call in microseconds; empty when the sampler is not a dsload
 * sampler (JMeter's milliseconds then stand);</li>
 * <li>intended-start delay µs: how long after its scheduled arrival time the sample started
 * (present only under an arrival schedule);</li>
 * <li>arrivals dropped before: scheduled arrivals the generator skipped since the previous
 * sample of the schedule, counted on this one (absent when none).</li>
 * </ul>
 * Readers that know only the first two fields keep working: they stop at the second colon.
 */
public record TimingValue(long startMillis, long elapsedMicros, long delayMicros, long dropped) {
    /** A field that is not there. */
    public static final long NONE = -1;
    /** Intended-start delay beyond which an arrival counts as late, unless the summary is told otherwise. */
    public static final long DEFAULT_LATE_MICROS = 10_000;

    /** The value of a sample timed in microseconds, outside any arrival schedule. */
    public static String format(long startMillis, long elapsedMicros) {
        return startMillis + ":" + elapsedMicros;
    }

    /**
     * @param elapsedMicros {@link #NONE} when the sampler did not time itself in microseconds
     * @param delayMicros   {@link #NONE} outside an arrival schedule
     */
    public static String format(long startMillis, long elapsedMicros, long delayMicros, long dropped) {
        StringBuilder value = new StringBuilder(40).append(startMillis).append(':');
        if (elapsedMicros >= 0) {
            value.append(elapsedMicros);
        }
        if (delayMicros >= 0) {
            value.append(':').append(delayMicros);
            if (dropped > 0) {
                value.append(':').append(dropped);
            }
        }
        return value.toString();
    }

    public boolean hasElapsed() {
        return elapsedMicros >= 0;
    }

    public boolean hasDelay() {
        return delayMicros >= 0;
    }

    /**
     * The value of a row, or null when there is none, it cannot be read, or it belongs to an
     * earlier sample of the thread (its start differs from the row's, whether the row is stamped
     * with its start or, JMeter's default, its end).
     */
    public static TimingValue parse(String text, long timeStamp, long elapsedMillis) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String[] parts = text.split(":", -1);
        if (parts.length < 2 || parts.length > 4 || parts[0].isEmpty()) {
            return null;
        }
        try {
            long start = Long.parseLong(parts[0]);
            if (start != timeStamp && start != timeStamp - elapsedMillis) {
                return null;
            }
            long elapsed = parts[1].isEmpty() ? NONE : nonNegative(parts[1]);
            long delay = parts.length > 2 ? nonNegative(parts[2]) : NONE;
            long dropped = parts.length > 3 ? nonNegative(parts[3]) : 0;
            if (elapsed < 0 && delay < 0) {
                return null;
            }
            return new TimingValue(start, elapsed, delay, dropped);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long nonNegative(String text) {
        long value = Long.parseLong(text);
        if (value < 0) {
            throw new NumberFormatException("negative: " + text);
        }
        return value;
    }
}
