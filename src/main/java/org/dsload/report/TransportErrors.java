package org.dsload.report;

/**
 * How the summary names a failure to reach the server at all. vegeta reports it as status code
 * 0; JMeter's HTTP sampler reports it with the code {@code Non HTTP response code: <exception
 * class>} and the message {@code Non HTTP response message: <text>}. The summary counts such a
 * sample under code {@value #CODE} and keeps the exception class in its error message.
 * Other samplers' codes (a Redis error class, {@code POOL_EXHAUSTED} ...) are left as they are.
 */
public final class TransportErrors {
    static final String CODE = "0";
    private static final String JMETER_PREFIX = "Non HTTP response code";

    private TransportErrors() {
    }

    static boolean isTransportError(String responseCode) {
        return responseCode.startsWith(JMETER_PREFIX);
    }

    /** The code the summary counts a sample under. */
    public static String code(String responseCode) {
        if (responseCode.isEmpty()) {
            return "(none)";
        }
        return isTransportError(responseCode) ? CODE : responseCode;
    }

    /**
     * The code a person reads in a sentence: a transport error's exception class without its
     * package ({@code ConnectException}), any other code as it is.
     */
    public static String shortCode(String responseCode) {
        if (!isTransportError(responseCode)) {
            return code(responseCode);
        }
        String name = responseCode.substring(responseCode.indexOf(':') + 1).trim();
        return name.isEmpty() ? CODE : name.substring(name.lastIndexOf('.') + 1);
    }

    /** The error message, with the exception class of a transport error so it can be acted on. */
    public static String message(String responseCode, String message) {
        if (!isTransportError(responseCode)) {
            return message;
        }
        int colon = responseCode.indexOf(':');
        String exception = colon < 0 ? "" : responseCode.substring(colon + 1).trim();
        return exception.isEmpty() ? message : message + " (" + exception + ")";
    }
}
