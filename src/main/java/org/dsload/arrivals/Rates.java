package org.dsload.arrivals;

import org.dsload.core.Fields;

/** Arrival rates as people write them: a number per second, with a decimal point if need be. */
final class Rates {
    /** Above this the interval between arrivals is below the clock's resolution. */
    static final double MAX_PER_SECOND = 1_000_000;

    private Rates() {
    }

    static double perSecond(Fields fields, String property, String raw) {
        double value = number(fields, property, raw);
        if (!(value > 0) || value > MAX_PER_SECOND) {
            throw fields.error(property, "must be above 0 and at most " + (long) MAX_PER_SECOND + " per second, got "
                    + raw.trim());
        }
        return value;
    }

    /** As {@link #perSecond}, where 0 stands for no rate at all: the arrivals are not paced. */
    static double perSecondOrNone(Fields fields, String property, String raw) {
        double value = number(fields, property, raw);
        if (value != 0 && (!(value > 0) || value > MAX_PER_SECOND)) {
            throw fields.error(property, "must be 0 (no schedule) or above 0 and at most " + (long) MAX_PER_SECOND
                    + " per second, got " + raw.trim());
        }
        return value;
    }

    private static double number(Fields fields, String property, String raw) {
        String text = fields.required(property, raw);
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw fields.error(property, "must be a number of arrivals per second (such as 5000 or 0.5), got '"
                    + text + "'");
        }
    }
}
