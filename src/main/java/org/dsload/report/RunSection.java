package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A part of a run's summary that comes from more than the results file: files the run left in
 * its folder (server gauges, generator metrics, slave logs, fault windows ...).
 */
public interface RunSection {

    /**
     * @param runDir  the run's folder (the one holding the JTL)
     * @param summary the figures of the results file
     * @return the section's text, or empty when the run has nothing for this section
     */
    Optional<String> render(Path runDir, Summary summary) throws IOException;
}
