package org.dsload.chaos;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations, byte sizes, rates and shares as people write them in a fault schedule:
 * {@code 200ms}, {@code 1m30s}, {@code 64MiB}, {@code 1mbit}, {@code 50%} or {@code 0.5}.
 * Errors say what was expected; the caller adds which field.
 */
public final class Quantities {
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
    private static final Pattern NUMBER_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z/%]*)");

    private Quantities() {
    }

    /** Milliseconds of {@code 250ms}, {@code 20s}, {@code 1m30s}, {@code 1h}; a bare number is seconds. */
    public static long millis(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        if (t.isEmpty()) {
            throw new IllegalArgumentException("a duration is missing (write 200ms, 20s or 1m30s)");
        }
        if (t.matches("\\d+(\\.\\d+)?")) {
            return Math.round(Double.parseDouble(t) * 1000);
        }
        Matcher m = DURATION_PART.matcher(t);
        long total = 0;
        int at = 0;
        while (m.find()) {
            if (m.start() != at) {
                break;
            }
            double value = Double.parseDouble(m.group(1));
            total += Math.round(value * switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1000;
                case "m" -> 60_000;
                default -> 3_600_000;
            });
            at = m.end();
        }
        if (at != t.length()) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a duration (write 200ms, 20s or 1m30s)");
        }
        return total;
    }

    /** Bytes of {@code 4096}, {@code 64k}, {@code 64KiB}, {@code 10MB}, {@code 1g} (k, m, g are powers of 1024). */
    public static long bytes(String text) {
        Matcher m = NUMBER_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a size (write 4096, 64KiB, 10MiB or 1GiB)");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long factor = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw new IllegalArgumentException("'" + text.trim() + "' has unknown size unit '" + m.group(2) + "'");
        };
        return Math.round(n * factor);
    }

    /**
     * Bytes per second of a rate as tc writes it: {@code 1mbit}, {@code 500kbit}, {@code 10mbps}
     * (bytes), {@code 100kb/s}; bit units are powers of 1000.
     */
    public static long bytesPerSecond(String text) {
        Matcher m = NUMBER_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text.trim() + "' is not a rate (write 1mbit, 500kbit or 2mbps)");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2).toLowerCase(Locale.ROOT).replace("/s", "ps");
        double perSecond = switch (unit) {
            case "bit" -> n / 8;
            case "kbit" -> n * 1000 / 8;
            case "mbit" -> n * 1_000_000 / 8;
            case "gbit" -> n * 1_000_000_000 / 8;
            case "", "bps" -> n;
            case "kbps", "kbps/s" -> n * 1000;
            case "mbps" -> n * 1_000_000;
            case "gbps" -> n * 1_000_000_000;
            default -> throw new IllegalArgumentException("'" + text.trim() + "' has unknown rate unit '" + m.group(2) + "'");
        };
        if (perSecond < 1) {
            throw new IllegalArgumentException("'" + text.trim() + "' is below one byte per second");
        }
        return Math.round(perSecond);
    }

    /** A share from {@code 50%}, {@code 50} (percent) or {@code 0.5}; between 0 and 1. */
    public static double share(String text) {
        String t = text.trim();
        double value;
        try {
            if (t.endsWith("%")) {
                value = Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100;
            } else {
                double n = Double.parseDouble(t);
                value = n > 1 ? n / 100 : n;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + t + "' is not a share (write 50% or 0.5)");
        }
        if (value < 0 || value > 1) {
            throw new IllegalArgumentException("'" + t + "' is not between 0 % and 100 %");
        }
        return value;
    }

    /** A duration the way a person reads it: 200ms, 1.5s, 2m. */
    public static String format(long millis) {
        if (millis < 1000) {
            return millis + "ms";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return (millis % 1000 == 0 ? Long.toString(millis / 1000) : String.format(Locale.ROOT, "%.1f", millis / 1000.0)) + "s";
    }
}
