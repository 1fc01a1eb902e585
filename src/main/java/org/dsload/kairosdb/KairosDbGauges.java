package org.dsload.kairosdb;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.dsload.gauges.GaugeRecording;
import org.dsload.gauges.HttpGauges;
import org.dsload.kairosdb.report.KairosDbServerSection;

/** Records KairosDB's own metrics while a KairosDB Connection's test runs, over an HTTP client of its own. */
final class KairosDbGauges {
    /**
     * Longer than a second: a KairosDB busy with queries answers the gauges' query late too, and
     * the next poll reads every second not read yet, so a late answer loses nothing.
     */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private KairosDbGauges() {
    }

    /** @return the lease to close after the load, or null when nothing is recorded */
    static AutoCloseable start(String element, List<URI> nodes, String user, String password) {
        return GaugeRecording.start(KairosDbServerSection.FILE, element, KairosDbClient.class,
                () -> List.of(new KairosDbMetricsSource(nodes, new HttpGauges(user, password, TIMEOUT))), null);
    }
}
