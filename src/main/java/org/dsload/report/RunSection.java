package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A part of a run's summary that comes from more than the results file: files the run left in
 * its folder (server gauges, generator metrics, slave logs, fault windows ...).
 *
 * <p>Sections register themselves: a class that implements this interface, is public and has a
 * public no-argument constructor is listed in {@code META-INF/services/org.dsload.report.RunSection}
 * and lives in the package of what it reports on. {@link RunReport} prints every registered
 * section in the order of {@link #order()}.
 */
public interface RunSection {

    /**
     * Where the section is printed: sections with smaller keys come first. The keys in use, so a
     * new section can find its place: store-specific figures 100 to 500 (YCSB 100, ZooKeeper
     * latencies 200, server gauges 300, ZooKeeper capacity 400, KairosDB write capacity 500),
     * fault phases 600, the recording 650, slaves 700, the generator 800, the servers' gauges 900 to
     * 930 (Redis, Cassandra, KairosDB, InfluxDB).
     */
    int order();

    /**
     * @param runDir  the run's folder (the one holding the JTL)
     * @param summary the figures of the results file
     * @return the section's text, or empty when the run has nothing for this section
     */
    Optional<String> render(Path runDir, Summary summary) throws IOException;
}
