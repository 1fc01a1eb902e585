package org.dsload.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.chaos.proxy.FaultProxy;

import org.dsload.recording.RecordMode;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Typed option values. Each converter's message says what was given and what is expected, with
 * the unit; picocli puts the option's name in front ("Invalid value for option '--max-p99': ...").
 */
final class OptionValues {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)");
    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");
    private static final Pattern WHOLE = Pattern.compile("\\d+");
    private static final Pattern DECIMAL = Pattern.compile("\\d+(?:\\.\\d+)?");

    private OptionValues() {
    }

    /** A latency with its unit (500us, 20ms, 1.5s) in microseconds. */
    /** How runs record their samples: rows or histograms; empty leaves the plan's own (null). */
    static final class Record implements ITypeConverter<RecordMode> {
        @Override
        public RecordMode convert(String text) {
            if (text.isBlank()) {
                return null;
            }
            try {
                return RecordMode.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + text + "' is not rows or histograms");
            }
        }
    }

    static final class Micros implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            Matcher m = DURATION.matcher(text.trim());
            if (!m.matches()) {
                throw new TypeConversionException("'" + text + "' is not a duration with its unit: write 500us, 20ms or 1.5s");
            }
            BigDecimal factor = switch (m.group(2)) {
                case "us", "µs" -> BigDecimal.ONE;
                case "ms" -> BigDecimal.valueOf(1_000);
                default -> BigDecimal.valueOf(1_000_000);
            };
            return new BigDecimal(m.group(1)).multiply(factor).setScale(0, RoundingMode.DOWN).longValueExact();
        }
    }

    /** A percentage (1%, 0.5%) as a ratio between 0 and 1. */
    static final class Ratio implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            double ratio = percent(text);
            if (ratio > 1) {
                throw new TypeConversionException("'" + text + "' is above 100%");
            }
            return ratio;
        }
    }

    /** A percentage a figure may grow by (10%, 250%) as a ratio of at least 0, above 1 allowed. */
    static final class Growth implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            return percent(text);
        }
    }

    private static double percent(String text) {
        Matcher m = PERCENT.matcher(text.trim());
        if (!m.matches()) {
            throw new TypeConversionException("'" + text + "' is not a percentage: write it with its % sign, such as 1% or 0.5%");
        }
        return Double.parseDouble(m.group(1)) / 100;
    }

    /** Milliseconds, fractions allowed (0.5), in microseconds. */
    static final class MillisAsMicros implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            if (!DECIMAL.matcher(text.trim()).matches()) {
                throw new TypeConversionException("'" + text + "' is not a number of milliseconds of at least 0, such as 10 or 2.5");
            }
            return Math.round(Double.parseDouble(text.trim()) * 1000);
        }
    }

    /** A whole number of seconds above 0. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            return Duration.ofSeconds(whole(text, 1, Long.MAX_VALUE, "a whole number of seconds above 0, such as 600"));
        }
    }

    /** Seconds, 0 (never) or more. */
    static final class SecondsOrNever implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            return whole(text, 0, Long.MAX_VALUE / 1000, "a whole number of seconds, 0 for never, such as 60");
        }
    }

    /** A count of 1 or more. */
    static final class Count implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return (int) whole(text, 1, Integer.MAX_VALUE, "a whole number above 0");
        }
    }

    /** A number above 0, decimals allowed: a rate. */
    static final class PositiveNumber implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                double n = Double.parseDouble(text.trim());
                if (n > 0 && !Double.isInfinite(n)) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new TypeConversionException("'" + text + "' is not a number above 0, such as 500 or 2.5");
        }
    }

    /** A count of 0 or more. */
    static final class CountOrNone implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return (int) whole(text, 0, Integer.MAX_VALUE, "a whole number, 0 or more");
        }
    }

    /** A TCP port. */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return (int) whole(text, 1, 65_535, "a port number from 1 to 65535");
        }
    }

    /** host:port, the host a name or an address. */
    static final class HostPort implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0) {
                throw new TypeConversionException("'" + text + "' is not host:port, such as 127.0.0.1:8474");
            }
            int port = (int) whole(text.substring(colon + 1), 1, 65_535, "host:port with a port from 1 to 65535");
            return new InetSocketAddress(text.substring(0, colon), port);
        }
    }

    /** A fault proxy route: name=listen_host:port>server_host:port. */
    static final class Route implements ITypeConverter<FaultProxy.RouteSpec> {
        @Override
        public FaultProxy.RouteSpec convert(String text) {
            try {
                return FaultProxy.RouteSpec.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    private static long whole(String text, long min, long max, String expected) {
        String t = text.trim();
        if (WHOLE.matcher(t).matches() && t.length() <= 18) {
            long n = Long.parseLong(t);
            if (n >= min && n <= max) {
                return n;
            }
        }
        throw new TypeConversionException("'" + text + "' is not " + expected);
    }
}
