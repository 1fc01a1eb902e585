package org.dsload.arrivals;

import org.dsload.core.Fields;

/** Arrival rates as people write them: a number per second, with a decimal point if need be. */
final class Rates {
    /** Above this the interval between arrivals is below the clock's resolution. */
    static final double MAX_PER_SECOND = 1_000_000;

    private Rates() {
    }

    static double perSecond(Fields fields, String property, String raw) {
        String text = fields.required(property, raw);
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw fields.error(property, "must be a number of arrivals per second (such as 5000 or 0.5), got '"
                    + text + "'");
        }
        if (!(value > 0) || value > MAX_PER_SECOND) {
            throw fields.error(property, "must be above 0 and at most " + (long) MAX_PER_SECOND + " per second, got "
                    + text);
        }
        return value;
    }
}
