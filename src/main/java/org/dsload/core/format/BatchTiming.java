package org.dsload.core.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@value JtlColumns#TIMING} value of a row that stands for several requests, each timed on its
 * own (requests kept in flight together, answered in a batch):
 * {@code <row start ms>;<entry>;<entry>...}, one entry per request:
 * {@code <offset µs>:<elapsed µs>[:<intended-start delay µs>[:<arrivals dropped before>[:<count>]]]}.
 *
 * <ul>
 * <li>offset: when the request was sent, in microseconds after the row's start (the first send);</li>
 * <li>elapsed: from its send to its reply;</li>
 * <li>delay: how long after its scheduled arrival it was sent, empty outside an arrival schedule;</li>
 * <li>dropped: arrivals skipped just before it (absent when none);</li>
 * <li>count: the requests it stands for (a pipeline sent as one), absent when 1.</li>
 * </ul>
 * A value without {@code ;} is a single request's ({@link TimingValue}).
 */
public final class BatchTiming {
    static final char SEPARATOR = ';';

    private BatchTiming() {
    }

    /** One request of a batch row. */
    public record Entry(long offsetMicros, long elapsedMicros, long delayMicros, long dropped, int count) {
        public Entry {
            if (offsetMicros < 0 || elapsedMicros < 0 || dropped < 0 || count < 1) {
                throw new IllegalArgumentException("negative time or count in a batch entry");
            }
        }

        public boolean hasDelay() {
            return delayMicros >= 0;
        }
    }

    /** Whether a timing value is a batch's (as opposed to one request's). */
    public static boolean isBatch(String text) {
        return text != null && text.indexOf(SEPARATOR) >= 0;
    }

    public static String format(long rowStartMillis, List<Entry> entries) {
        StringBuilder value = new StringBuilder(16 + entries.size() * 16).append(rowStartMillis);
        for (Entry e : entries) {
            value.append(SEPARATOR).append(e.offsetMicros()).append(':').append(e.elapsedMicros());
            boolean more = e.dropped() > 0 || e.count() > 1;
            if (e.hasDelay() || more) {
                value.append(':');
                if (e.hasDelay()) {
                    value.append(e.delayMicros());
                }
            }
            if (more) {
                value.append(':');
                if (e.dropped() > 0) {
                    value.append(e.dropped());
                }
            }
            if (e.count() > 1) {
                value.append(':').append(e.count());
            }
        }
        return value.toString();
    }

    /**
     * The entries of a batch value, or null when it is not one, cannot be read, or belongs to an
     * earlier sample of the thread (its start is neither the row's start nor its end minus elapsed).
     */
    public static List<Entry> parse(String text, long timeStamp, long elapsedMillis) {
        if (!isBatch(text)) {
            return null;
        }
        String[] parts = text.split(String.valueOf(SEPARATOR), -1);
        try {
            long start = Long.parseLong(parts[0]);
            if (start != timeStamp && start != timeStamp - elapsedMillis) {
                return null;
            }
            List<Entry> entries = new ArrayList<>(parts.length - 1);
            for (int i = 1; i < parts.length; i++) {
                entries.add(entry(parts[i]));
            }
            return entries.isEmpty() ? null : entries;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The row start of a batch value, which {@link #parse} has accepted. */
    public static long rowStart(String text) {
        return Long.parseLong(text.substring(0, text.indexOf(SEPARATOR)));
    }

    private static Entry entry(String text) {
        String[] f = text.split(":", -1);
        if (f.length < 2 || f.length > 5) {
            throw new IllegalArgumentException("batch entry of " + f.length + " fields");
        }
        long offset = Long.parseLong(f[0]);
        long elapsed = Long.parseLong(f[1]);
        long delay = f.length > 2 && !f[2].isEmpty() ? nonNegative(f[2]) : TimingValue.NONE;
        long dropped = f.length > 3 && !f[3].isEmpty() ? nonNegative(f[3]) : 0;
        int count = f.length > 4 ? Integer.parseInt(f[4]) : 1;
        return new Entry(offset, elapsed, delay, dropped, count);
    }

    private static long nonNegative(String text) {
        long value = Long.parseLong(text);
        if (value < 0) {
            throw new IllegalArgumentException("negative: " + text);
        }
        return value;
    }
}
