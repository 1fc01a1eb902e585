package org.dsload.cassandra;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.core.Errors;
import org.dsload.gauges.GaugeRecording;
import org.dsload.gauges.GaugeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.metadata.Node;

/**
 * Records the virtual tables of every node the driver knows at test start, through a small
 * session of its own (one connection per node, remote data centres included), so that the
 * load's connections and its request counts stay the load's.
 */
final class CassandraGauges {
    private static final Logger log = LoggerFactory.getLogger(CassandraGauges.class);
    /** A poll must fit into its second. */
    static final Duration TIMEOUT = Duration.ofMillis(900);

    private CassandraGauges() {
    }

    /**
     * @param config the load session's settings (contact points, login, TLS, driver options),
     *               changed here for the gauge session after the load session was built
     * @return the lease to close after the load, or null when nothing is recorded
     */
    static AutoCloseable start(String element, String sessionName, ProgrammaticDriverConfigLoaderBuilder config,
            List<InetSocketAddress> contactPoints, String datacenter, RequestCounter counter) {
        if (GaugeRecording.runFolder(CassandraServerSection.FILE).isEmpty()) {
            return null;
        }
        CqlSession gauges;
        try {
            config.withString(DefaultDriverOption.SESSION_NAME, sessionName + "-gauges")
                    .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 1)
                    .withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE, 1)
                    .withInt(DefaultDriverOption.LOAD_BALANCING_DC_FAILOVER_MAX_NODES_PER_REMOTE_DC, 10_000)
                    .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, TIMEOUT)
                    .withString(DefaultDriverOption.SPECULATIVE_EXECUTION_POLICY_CLASS, "NoSpeculativeExecutionPolicy")
                    .withStringList(DefaultDriverOption.METRICS_NODE_ENABLED, List.of());
            gauges = CqlSession.builder().withConfigLoader(config.build()).addContactPoints(contactPoints)
                    .withLocalDatacenter(datacenter).build();
        } catch (RuntimeException e) {
            log.warn("dsload: {}: Cassandra server gauges are not recorded: their session cannot connect: {}", element,
                    Errors.describe(e));
            return null;
        }
        List<Node> nodes = new ArrayList<>(gauges.getMetadata().getNodes().values());
        nodes.sort(Comparator.comparing(CassandraErrors::address));
        AutoCloseable lease = GaugeRecording.start(CassandraServerSection.FILE, element, CassandraClient.class, () -> {
            List<GaugeSource> sources = new ArrayList<>();
            nodes.forEach(node -> sources.add(new CassandraNodeSource(gauges, node, TIMEOUT.toMillis() + 50)));
            return sources;
        }, counter::snapshot);
        if (lease == null) {
            gauges.close();
            return null;
        }
        return () -> {
            try {
                lease.close();
            } finally {
                gauges.closeAsync();
            }
        };
    }
}
