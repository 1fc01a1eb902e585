package org.dsload.kairosdb;

/** KairosDB's REST paths, relative so that a base URL with a path (behind a proxy) keeps it. */
final class KairosDbPaths {
    static final String VERSION = "api/v1/version";
    static final String DATAPOINTS = "api/v1/datapoints";
    static final String QUERY = "api/v1/datapoints/query";

    private KairosDbPaths() {
    }
}
