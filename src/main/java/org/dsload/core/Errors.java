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
        Throwable cause = error.getCause();
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
            cause = cause.getCause();
        }
        return text.toString();
    }

    /** The innermost cause, which usually names what went wrong on the wire. */
    public static Throwable rootCause(Throwable error) {
        Throwable current = error;
        int depth = 0;
        while (current.getCause() != null && current.getCause() != current && depth++ < 10) {
            current = current.getCause();
        }
        return current;
    }
}
