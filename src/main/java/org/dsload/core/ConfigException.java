package org.dsload.core;

/**
 * A setting a person has to fix before the element can work. The message names the element
 * and the field as the GUI shows them and says what was expected, so it can be acted on without
 * a stack trace.
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
