package org.dsload.gauges;

/** The summary's cross-check line a test expects. */
public final class CrossCheckLine {

    private CrossCheckLine() {
    }

    /** {@code Cross-check [dsload reported, server counted] n, n (match) what}. */
    public static String match(long n, String what) {
        return "Cross-check [dsload reported, server counted] " + n + ", " + n + " (match) " + what;
    }
}
