package org.dsload.core;

/** Turns exceptions into one line a person can act on. */
public final class Errors {
    private Errors() {
    }

    /**
     * The exception's class and message followed by the distinct messages of its causes, for
     * example "JedisConnectionException: Failed to connect ... (caused by ConnectException:
     * Connection refused)".
     */
    public static String describe(Throwable error) {
        StringBuilder text = new StringBuilder(error.getClass().getSimpleName());
        String message = error.getMessage();
        if (message != null && !message.isBlank()) {
            text.append(": ").append(message.strip());
        }
        Throwable cause = causeOf(error);
        int depth = 0;
        while (cause != null && cause != error && depth++ < 4) {
            String causeMessage = cause.getMessage();
            boolean repeats = causeMessage != null && message != null && message.contains(causeMessage);
            if (!repeats) {
                text.append(" (caused by ").append(cause.getClass().getSimpleName());
                if (causeMessage != null && !causeMessage.isBlank()) {
                    text.append(": ").append(causeMessage.strip());
                }
                text.append(')');
            }
            message = causeMessage;
            cause = causeOf(cause);
        }
        return text.toString();
    }

    /** The cause, or else the first suppressed exception (drivers that try several addresses keep them so). */
    private static Throwable causeOf(Throwable error) {
        if (error.getCause() != null) {
            return error.getCause();
        }
        Throwable[] suppressed = error.getSuppressed();
        return suppressed.length > 0 ? suppressed[0] : null;
    }

    /** A message with no final full stop, so that a sentence can follow it. */
    public static String sentence(String text) {
        String trimmed = text.strip();
        while (trimmed.endsWith(".")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    /** The innermost cause, which usually names what went wrong on the wire. */
    public static Throwable rootCause(Throwable error) {
        Throwable current = error;
        int depth = 0;
        while (causeOf(current) != null && causeOf(current) != current && depth++ < 10) {
            current = causeOf(current);
        }
        return current;
    }
}
