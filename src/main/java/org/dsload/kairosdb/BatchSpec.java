package org.dsload.kairosdb;

import java.util.List;

/**
 * The compiled settings of a generated write batch: M metrics per request out of K per resource,
 * P points per metric, names and tags from templates, time stamps and values.
 *
 * @param simulated     false: points are stamped with the time of sending; true: with a clock of the
 *                      thread's own that advances one interval per round of the resource's metrics
 * @param startOffsetMillis how far before the first sample the simulated clock starts
 */
record BatchSpec(SeriesTemplate name, List<Tag> tags, int metricsPerRequest, int metricsPerResource, int pointsPerMetric,
        boolean simulated, long intervalMillis, long startOffsetMillis, ValueSpec values, long ttlSeconds) {

    /** A tag whose name and value may carry #{...} placeholders. */
    record Tag(SeriesTemplate name, SeriesTemplate value) {
    }

    int pointsPerRequest() {
        return metricsPerRequest * pointsPerMetric;
    }
}
