package org.dsload.core.format;

/** Columns dsload adds to JMeter's results files. */
public final class JtlColumns {
    /**
     * The sample variable (and so the JTL column, with {@code sample_variables=dsload_timing})
     * holding {@code <start ms>:<elapsed µs>} of a dsload sample.
     */
    public static final String TIMING = "dsload_timing";

    private JtlColumns() {
    }
}
