package org.dsload.core;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * An element's fields compiled once, and again only when one of them changed. JMeter sets a
 * TestBean's fields before every sample (they may hold {@code ${...}} expressions), so a
 * sampler that parsed them each time would spend more on its fields than on a fast request.
 *
 * <p>One instance per element clone, that is per thread: it is not shared, so it needs no lock.
 *
 * @param <T> the compiled form
 */
public final class CompiledFields<T> {
    private String[] source;
    private T compiled;

    /**
     * @param fields  the fields' current text, in a fixed order
     * @param compile builds the compiled form from the same fields; its exception (a
     *                {@link ConfigException} for a bad field) passes through and nothing is kept
     * @return the form compiled from these fields, built now only if they differ from last time
     */
    public T get(String[] fields, Supplier<T> compile) {
        if (compiled != null && Arrays.equals(source, fields)) {
            return compiled;
        }
        T fresh = compile.get();
        source = fields.clone();
        compiled = fresh;
        return fresh;
    }
}
