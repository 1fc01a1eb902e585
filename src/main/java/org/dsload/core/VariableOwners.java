package org.dsload.core;

import java.util.HashMap;
import java.util.Map;

import org.apache.jmeter.threads.JMeterContextService;

/**
 * Which connection element of the test publishes its client under which variable name. Two
 * elements with one name overwrite each other's client, so the samplers silently use whichever
 * started last: the second is named, with the first, when it claims the name.
 */
final class VariableOwners {
    private record Owner(Object element, String name) {
    }

    private static final Map<String, Owner> OWNERS = new HashMap<>();
    /** The start time of the test the names belong to: a new test starts with none claimed. */
    private static long test = Long.MIN_VALUE;

    private VariableOwners() {
    }

    /**
     * Claims {@code variable} for {@code element}, named {@code name} (as {@link Fields#element()} names it).
     *
     * @return the name of another element that claimed it earlier in this test, or null
     */
    static synchronized String claim(String variable, Object element, String name) {
        long started = JMeterContextService.getTestStartTime();
        if (started != test) {
            OWNERS.clear();
            test = started;
        }
        Owner earlier = OWNERS.putIfAbsent(variable, new Owner(element, name));
        return earlier == null || earlier.element() == element ? null : earlier.name();
    }
}
