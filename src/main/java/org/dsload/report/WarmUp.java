package org.dsload.report;

/**
 * The warm-up of a plan: requests sent before its measured window under labels of their own,
 * ending in {@value #SUFFIX} ({@code POST /write (warm-up)}). They reach the server, so they count
 * where the server's counts are compared, but the schedule warning and the verdicts of a run
 * judge the measured window without them: a JVM's first, interpreted seconds are what they are
 * there to absorb.
 */
public final class WarmUp {
    public static final String SUFFIX = org.dsload.core.format.JtlColumns.WARM_UP_SUFFIX;

    private WarmUp() {
    }

    /** True for a label of warm-up requests. */
    public static boolean is(String label) {
        return label.endsWith(SUFFIX);
    }
}
