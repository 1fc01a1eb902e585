package org.dsload.testing;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need something beyond a JDK (influxd, Xvfb, root with kernel tools) skip where it is
 * missing, saying what is missing, unless an environment variable (set by .ci/run) demands it:
 * then its absence is a failure.
 */
public final class Prerequisites {
    private Prerequisites() {
    }

    /** Ends the test for a missing prerequisite: a failure when {@code env} is {@code demanding}, a skip otherwise. */
    public static void missing(String message, String env, String demanding) {
        if (demanding.equalsIgnoreCase(String.valueOf(System.getenv(env)))) {
            fail(message + ", and " + env + "=" + demanding);
        }
        Assumptions.abort(message + ": test skipped. Provide it, or set " + env + "=" + demanding
                + " to make its absence a failure (.ci/run does).");
    }
}
