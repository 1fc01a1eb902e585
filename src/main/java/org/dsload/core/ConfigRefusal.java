package org.dsload.core;

import org.dsload.core.format.RunVerdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A setting an element refused at the test's start, said on the console and in JMeter's log and
 * told to the runner ({@link RunVerdict}): a run stopped before its first sample has no sample to
 * carry the reason, and would otherwise end as a run that merely produced nothing.
 */
public final class ConfigRefusal {
    private static final Logger log = LoggerFactory.getLogger(ConfigRefusal.class);

    private ConfigRefusal() {
    }

    /** Says {@code reason} and leaves it as this engine's refusal (nothing left outside a dsload run). */
    public static void say(String reason) {
        log.error("dsload: {}", reason);
        System.err.println("dsload: " + reason); // NOSONAR the console is where a headless user looks
        EngineVerdict.record((dir, engine) -> RunVerdict.refuse(dir, "dsload", engine, reason));
    }
}
