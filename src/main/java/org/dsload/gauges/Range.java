package org.dsload.gauges;

import java.util.Locale;

/** The smallest and largest of a series of values, as the summary prints them ("3", "1-40", "0.52-7.10"). */
public final class Range {
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public void add(double value) {
        if (!Double.isNaN(value)) {
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
    }

    public boolean isEmpty() {
        return min == Double.POSITIVE_INFINITY;
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    /** The range divided by {@code unit} (bytes to MB ...), or "-" when empty. */
    public String text(double unit) {
        if (isEmpty()) {
            return "-";
        }
        String low = number(min / unit);
        String high = number(max / unit);
        return low.equals(high) ? low : low + "-" + high;
    }

    public String text() {
        return text(1);
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.2f", v);
    }
}
