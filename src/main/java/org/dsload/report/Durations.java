package org.dsload.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Millisecond figures written the way vegeta writes Go durations: 0s, 850µs, 12ms, 1.5s, 1m0.25s. */
public final class Durations {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS z", Locale.ROOT)
            .withZone(ZoneId.systemDefault());
    private Durations() {
    }

    public static String format(double millis) {
        if (millis == 0) {
            return "0s";
        }
        if (millis < 1) {
            return trim(millis * 1000, 0) + "µs";
        }
        if (millis < 1000) {
            return trim(millis, 3) + "ms";
        }
        long wholeMinutes = (long) (millis / 60_000);
        double seconds = (millis - wholeMinutes * 60_000) / 1000;
        if (wholeMinutes == 0) {
            return trim(seconds, 3) + "s";
        }
        long hours = wholeMinutes / 60;
        long minutes = wholeMinutes % 60;
        return (hours > 0 ? hours + "h" : "") + minutes + "m" + trim(seconds, 3) + "s";
    }

    /** An instant in epoch milliseconds as a date and time of the local zone, to the millisecond. */
    public static String timestamp(long epochMillis) {
        return TIME.format(Instant.ofEpochMilli(epochMillis));
    }

    private static String trim(double value, int decimals) {
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0).toPlainString() : rounded.toPlainString();
    }
}
