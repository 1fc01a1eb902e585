package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A chart of a run drawn beside the client's own (a store's server gauges on the time axis of the
 * client's requests and p99), from files the run left in its folder.
 *
 * <p>Charts register themselves as sections do ({@link RunSection}): a public class with a public
 * no-argument constructor, listed in {@code META-INF/services/org.dsload.report.RunChart}, in the
 * package of what it draws. {@link RunCharts} draws every registered chart after its own, in the
 * order of {@link #order()}.
 */
public interface RunChart {

    /**
     * Where the chart comes among the others. The keys in use: server gauges of Redis 100,
     * Cassandra 200, KairosDB 300, InfluxDB 400, ZooKeeper 500.
     */
    int order();

    /** @return the PNG written into the frame's folder, or empty when the run has nothing for this chart */
    Optional<Path> write(ChartFrame frame) throws IOException;
}
