package org.dsload.core.format;

/** Columns dsload adds to JMeter's results files. */
public final class JtlColumns {
    /**
     * The sample variable (and so the JTL column, with {@code sample_variables=dsload_timing})
     * holding {@code <start ms>:<elapsed µs>} of a dsload sample.
     */
    public static final String TIMING = "dsload_timing";
    /**
     * What ends the label of a plan's warm-up requests ({@code POST /write (warm-up)}): sent before its
     * measured window, by a warm-up of its own or by the first seconds of a schedule that has one.
     */
    public static final String WARM_UP_SUFFIX = " (warm-up)";

    private JtlColumns() {
    }
}
