package org.dsload.gauges;

import java.util.HashMap;
import java.util.Map;

/**
 * A gauge column that holds several counters as {@code name=count} pairs separated by spaces
 * (Redis's commandstats, ZooKeeper's per-namespace counters), read back as a map.
 */
public final class CounterPairs {

    private CounterPairs() {
    }

    /** The counters of a value; a pair whose count is not a number is left out. */
    public static Map<String, Long> parse(String value) {
        Map<String, Long> counters = new HashMap<>();
        for (String pair : value.split(" ")) {
            int eq = pair.lastIndexOf('=');
            if (eq > 0) {
                try {
                    counters.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
                } catch (NumberFormatException e) {
                    // not a count: leave it out
                }
            }
        }
        return counters;
    }
}
