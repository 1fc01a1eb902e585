package org.dsload.core;

/**
 * What one request came to, however its reply arrived (a blocking call on the sampler's thread, or
 * a driver callback): success, the response code and message the sample shows, and the bytes it
 * moved on the wire.
 */
public record Outcome(boolean success, String code, String message, long sentBytes, long receivedBytes) {

    public static Outcome ok(String code, String message, long sentBytes, long receivedBytes) {
        return new Outcome(true, code, message, sentBytes, receivedBytes);
    }

    public static Outcome failed(String code, String message, long sentBytes, long receivedBytes) {
        return new Outcome(false, code, message, sentBytes, receivedBytes);
    }

    /** Whether two outcomes may share a results row: same success and response code. */
    public boolean sameKind(Outcome other) {
        return success == other.success && code.equals(other.code);
    }
}
