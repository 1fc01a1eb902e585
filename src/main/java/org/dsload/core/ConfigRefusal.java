package org.dsload.core;

import org.dsload.core.format.RunVerdict;

/**
 * A setting an element refused at the test's start, told to the runner ({@link RunVerdict}) as
 * well as on the console: a run stopped before its first sample has no sample to carry the
 * reason, and would otherwise end as a run that merely produced nothing.
 */
public final class ConfigRefusal {
    private ConfigRefusal() {
    }

    /** Leaves {@code reason} as this engine's refusal; nothing outside a dsload run. */
    public static void record(String source, String reason) {
        EngineVerdict.record((dir, engine) -> RunVerdict.refuse(dir, source, engine, reason));
    }
}
