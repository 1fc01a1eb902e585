package org.dsload.core.format;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Limits a running test must keep, judged once a second on the requests that ended in that second:
 * {@code pN>duration} (the N-th latency percentile of the second above the duration),
 * {@code errors>percent} (the share of the second's requests that failed) and {@code rate<n/s}
 * (fewer requests ended in the second), each optionally {@code for Ns}: broken in N seconds in a
 * row ({@value #DEFAULT_FOR_SECONDS} by default). Several conditions are separated by {@code ;}.
 * A second without a request ended keeps the latency and error limits (nothing to judge) and,
 * once a first request has ended, breaks a rate limit (the seconds before it, a setUp or a warm-up,
 * are not judged).
 */
public final class StopConditions {
    /** Seconds in a row a condition must be broken when no {@code for Ns} says otherwise. */
    public static final int DEFAULT_FOR_SECONDS = 1;
    private static final Pattern CONDITION = Pattern.compile(
            "(p(\\d+(?:\\.\\d+)?)|errors|rate)\\s*([<>])\\s*(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s|%|/s)?(?:\\s+for\\s+(\\d+)\\s*s)?",
            Pattern.CASE_INSENSITIVE);
    private static final String FORMS = "pN>duration (p99>50ms), errors>percent (errors>5%) or rate<requests/s"
            + " (rate<100/s), each optionally followed by 'for Ns' (p99>50ms for 10s)";

    /** What a condition limits. */
    public enum Kind {
        LATENCY, ERRORS, RATE
    }

    /**
     * One condition: {@code threshold} is microseconds for {@link Kind#LATENCY}, a ratio (0 to 1)
     * for {@link Kind#ERRORS}, requests per second for {@link Kind#RATE}.
     */
    public record Condition(Kind kind, double percentile, double threshold, int forSeconds, String text) {
        /** Whether the second's figures break it. */
        boolean broken(Second second) {
            return switch (kind) {
                case LATENCY -> second.requests() > 0 && second.percentileMicros(percentile) > threshold;
                case ERRORS -> second.requests() > 0 && (double) second.failed() / second.requests() > threshold;
                case RATE -> second.requests() < threshold;
            };
        }

        /** The second's figure this condition judges, as text. */
        String measured(Second second) {
            return switch (kind) {
                case LATENCY -> "p" + plain(percentile) + " " + duration(second.percentileMicros(percentile));
                case ERRORS -> "errors " + plain(100.0 * second.failed() / Math.max(1, second.requests())) + "% ("
                        + second.failed() + " of " + second.requests() + ")";
                case RATE -> "rate " + second.requests() + "/s";
            };
        }
    }

    /** The figures of one second of requests. */
    public interface Second {
        long requests();

        long failed();

        /** The {@code percentile}-th latency of the second's requests, in microseconds. */
        long percentileMicros(double percentile);
    }

    /**
     * A condition broken long enough: since {@code sinceEpochSecond}, at {@code epochSecond}, with the
     * measured figure of the last second.
     */
    public record Breach(Condition condition, long sinceEpochSecond, long epochSecond, String measured) {
        public String text() {
            return "'" + condition.text() + "' broken" + (condition.forSeconds() > 1 ? " for " + condition.forSeconds()
                    + " s in a row" : "") + ": " + measured;
        }
    }

    private final List<Condition> conditions;

    private StopConditions(List<Condition> conditions) {
        this.conditions = List.copyOf(conditions);
    }

    public List<Condition> conditions() {
        return conditions;
    }

    public boolean isEmpty() {
        return conditions.isEmpty();
    }

    /**
     * The conditions of {@code text}, separated by {@code ;} (blank: none).
     *
     * @throws IllegalArgumentException naming the part that is not a condition and the forms that are
     */
    public static StopConditions parse(String text) {
        List<Condition> found = new ArrayList<>();
        if (text != null) {
            for (String part : text.split(";")) {
                if (!part.isBlank()) {
                    found.add(condition(part.trim()));
                }
            }
        }
        return new StopConditions(found);
    }

    /** All the texts as one, {@code ;} between them, for the JMeter property. */
    public static String join(List<String> texts) {
        return String.join(";", texts);
    }

    private static Condition condition(String text) {
        Matcher m = CONDITION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a stop condition: write " + FORMS);
        }
        String what = m.group(1).toLowerCase(Locale.ROOT);
        String op = m.group(3);
        double value = Double.parseDouble(m.group(4));
        String unit = m.group(5) == null ? "" : m.group(5).toLowerCase(Locale.ROOT);
        int forSeconds = m.group(6) == null ? DEFAULT_FOR_SECONDS : Integer.parseInt(m.group(6));
        if (forSeconds < 1) {
            throw new IllegalArgumentException("'" + text + "': 'for' needs at least 1 s");
        }
        if (what.startsWith("p")) {
            double percentile = Double.parseDouble(m.group(2));
            if (!(percentile > 0 && percentile <= 100)) {
                throw new IllegalArgumentException("'" + text + "': the percentile must lie above 0 and at most 100");
            }
            long factor = switch (unit) {
                case "us", "µs" -> 1;
                case "ms" -> 1000;
                case "s" -> 1_000_000;
                default -> throw new IllegalArgumentException("'" + text + "': a latency limit needs a duration with its unit"
                        + " (500us, 50ms, 1.5s)");
            };
            requireOperator(text, op, ">");
            return new Condition(Kind.LATENCY, percentile, value * factor, forSeconds, text);
        }
        if (what.equals("errors")) {
            requireOperator(text, op, ">");
            if (!unit.equals("%") || value > 100) {
                throw new IllegalArgumentException("'" + text + "': an error limit is a percentage from 0 to 100 (errors>5%)");
            }
            return new Condition(Kind.ERRORS, 0, value / 100, forSeconds, text);
        }
        requireOperator(text, op, "<");
        if (!unit.isEmpty() && !unit.equals("/s")) {
            throw new IllegalArgumentException("'" + text + "': a rate limit is requests per second (rate<100/s)");
        }
        return new Condition(Kind.RATE, 0, value, forSeconds, text);
    }

    private static void requireOperator(String text, String op, String wanted) {
        if (!op.equals(wanted)) {
            throw new IllegalArgumentException("'" + text + "': only '" + wanted + "' is supported here: write " + FORMS);
        }
    }

    /** Judges the conditions second after second, counting the seconds in a row each one is broken. */
    public Judge judge() {
        return new Judge();
    }

    /** The state of one test's judgement; used by one thread. */
    public final class Judge {
        private final int[] brokenFor = new int[conditions.size()];
        private final long[] brokenSince = new long[conditions.size()];
        private boolean started;

        private Judge() {
        }

        /** The first condition broken long enough with this second, or null. */
        public Breach second(long epochSecond, Second second) {
            Breach first = null;
            started |= second.requests() > 0;
            for (int i = 0; i < conditions.size(); i++) {
                Condition c = conditions.get(i);
                if (!c.broken(second) || (c.kind() == Kind.RATE && !started)) {
                    brokenFor[i] = 0;
                    continue;
                }
                if (brokenFor[i]++ == 0) {
                    brokenSince[i] = epochSecond;
                }
                if (first == null && brokenFor[i] >= c.forSeconds()) {
                    first = new Breach(c, brokenSince[i], epochSecond, c.measured(second));
                }
            }
            return first;
        }
    }

    private static String duration(long micros) {
        return micros < 1000 ? micros + "µs" : micros < 1_000_000 ? plain(micros / 1000.0) + "ms" : plain(micros / 1e6) + "s";
    }

    private static String plain(double value) {
        BigDecimal d = BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}
