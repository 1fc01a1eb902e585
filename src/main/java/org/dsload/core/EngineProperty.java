package org.dsload.core;

import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** JMeter properties of the engine that dsload elements read as numbers. */
public final class EngineProperty {
    private static final Logger log = LoggerFactory.getLogger(EngineProperty.class);

    private EngineProperty() {
    }

    /** A whole-number property, {@code fallback} when unset, blank or not a number (logged). */
    public static int wholeNumber(String name, int fallback) {
        String value = JMeterUtils.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            log.warn("dsload: property {} must be a whole number, got '{}'", name, value);
            return fallback;
        }
    }
}
