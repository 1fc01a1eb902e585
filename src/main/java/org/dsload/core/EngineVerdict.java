package org.dsload.core;

import java.io.IOException;
import java.nio.file.Path;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Leaves a line for the runner in this engine's run folder ({@link RunVerdict}); nothing outside a dsload run. */
final class EngineVerdict {
    private static final Logger log = LoggerFactory.getLogger(EngineVerdict.class);

    /** What the line says. */
    interface Writer {
        void write(Path runDir, String engine) throws IOException;
    }

    private EngineVerdict() {
    }

    static void record(Writer writer) {
        String dir = JMeterUtils.getJMeterProperties() == null ? null : JMeterUtils.getProperty(RunProperties.RUN_DIR);
        if (dir == null || dir.isBlank()) {
            return; // not run by dsload run: the console line is all there is
        }
        try {
            writer.write(Path.of(dir.trim()), JMeterUtils.getPropDefault(RunProperties.ENGINE, RunProperties.MASTER));
        } catch (IOException e) {
            log.warn("dsload: cannot write {}: {}", RunVerdict.FILE, e.toString());
        }
    }
}
