package org.dsload.influxdb;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.dsload.gauges.GaugeRecording;
import org.dsload.gauges.GaugeSource;
import org.dsload.gauges.HttpGauges;
import org.dsload.influxdb.report.InfluxServerSection;

/**
 * Records the {@code /debug/vars} of InfluxDB 1.x servers while a test runs, over an HTTP client of
 * its own (never the load's pool), with the writes an element counted for the cross-check.
 */
final class InfluxGauges {
    /** A poll must fit into its second. */
    static final Duration TIMEOUT = Duration.ofMillis(900);

    private InfluxGauges() {
    }

    /** @return the lease to close after the load, or null when nothing is recorded */
    static AutoCloseable start(String element, List<URI> servers, String user, String password, WriteCounter writes) {
        HttpGauges http = new HttpGauges(user, password, TIMEOUT);
        return GaugeRecording.start(InfluxServerSection.FILE, element, InfluxClient.class,
                () -> servers.stream().<GaugeSource>map(s -> new InfluxVarsSource(s, http)).toList(), writes::snapshot);
    }
}
