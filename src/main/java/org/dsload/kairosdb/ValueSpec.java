package org.dsload.kairosdb;

import java.util.SplittableRandom;

/**
 * How the write sampler makes data point values:
 * {@code random:MIN-MAX} (decimals, uniform), {@code randint:MIN-MAX} (whole numbers, both ends
 * included), {@code counter} (0, 1, 2 ... per thread, one step per point) or a constant number.
 */
final class ValueSpec {
    private enum Kind { RANDOM, RANDINT, COUNTER, CONSTANT }

    private final Kind kind;
    private final double min;
    private final double max;
    private final String constant;

    private ValueSpec(Kind kind, double min, double max, String constant) {
        this.kind = kind;
        this.min = min;
        this.max = max;
        this.constant = constant;
    }

    /** @throws IllegalArgumentException saying what is wrong, for the caller to name the field */
    static ValueSpec parse(String text) {
        String spec = text == null ? "" : text.trim();
        if (spec.equals("counter")) {
            return new ValueSpec(Kind.COUNTER, 0, 0, null);
        }
        if (spec.equals("random")) {
            return new ValueSpec(Kind.RANDOM, 0, 100, null);
        }
        for (Kind kind : new Kind[] {Kind.RANDOM, Kind.RANDINT}) {
            String prefix = kind.name().toLowerCase(java.util.Locale.ROOT) + ":";
            if (spec.startsWith(prefix)) {
                String range = spec.substring(prefix.length()).trim();
                int dash = range.indexOf('-', 1);
                if (dash < 0) {
                    throw new IllegalArgumentException("needs a range after '" + prefix + "', such as " + prefix + "0-100");
                }
                double low = number(range.substring(0, dash).trim(), kind == Kind.RANDINT);
                double high = number(range.substring(dash + 1).trim(), kind == Kind.RANDINT);
                if (!(high >= low)) {
                    throw new IllegalArgumentException("has range " + range + ": the smaller number goes first");
                }
                return new ValueSpec(kind, low, high, null);
            }
        }
        try {
            if (!Double.isFinite(Double.parseDouble(spec))) {
                throw new NumberFormatException();
            }
            return new ValueSpec(Kind.CONSTANT, 0, 0, spec.matches("-?\\d+") ? Long.toString(Long.parseLong(spec))
                    : Double.toString(Double.parseDouble(spec)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be random:MIN-MAX, randint:MIN-MAX, counter or a number, got '"
                    + spec + "'");
        }
    }

    private static double number(String text, boolean whole) {
        try {
            double value = whole ? Long.parseLong(text) : Double.parseDouble(text);
            if (!Double.isFinite(value)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("has '" + text + "', which is not a" + (whole ? " whole" : "") + " number");
        }
    }

    /** Appends the next value as JSON. {@code counter} holds the thread's counter, advanced here. */
    void append(StringBuilder json, SplittableRandom random, long[] counter) {
        switch (kind) {
            case RANDOM -> json.append(min == max ? min : min + random.nextDouble() * (max - min));
            case RANDINT -> json.append(min == max ? (long) min : random.nextLong((long) min, (long) max + 1));
            case COUNTER -> json.append(counter[0]++);
            default -> json.append(constant);
        }
    }
}
