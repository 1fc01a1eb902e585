package org.dsload.targets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import org.dsload.process.Deadline;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;

/**
 * A Cassandra cluster of real nodes on 127.0.0.1, 127.0.0.2, ... (Linux routes all of 127/8 to
 * loopback, so no interface set-up is needed). Every node uses the same native and storage ports,
 * as Cassandra expects of a cluster; the first node is the seed. Nodes join without streaming,
 * so a fresh cluster is up as soon as every node has started and gossiped.
 */
public final class EmbeddedCassandraCluster implements AutoCloseable {
    private final List<EmbeddedCassandra> nodes = new ArrayList<>();

    private EmbeddedCassandraCluster() {
    }

    /** Heap of each node: {@code -Ddsload.cassandra.cluster.heap} or 512m. */
    public static EmbeddedCassandraCluster start(int size) {
        return start(size, System.getProperty("dsload.cassandra.cluster.heap", "512m"));
    }

    public static EmbeddedCassandraCluster start(int size, String heap) {
        return start(size, heap, Map.of(), port -> { });
    }

    /**
     * A cluster whose nodes named in {@code clientAddresses} (node address to the address clients
     * are told, broadcast_rpc_address) are reached by clients elsewhere, e.g. through a fault
     * proxy; {@code beforeAllUp} gets the native port and starts whatever listens there before the
     * cluster is awaited through a client.
     */
    public static EmbeddedCassandraCluster start(int size, String heap, Map<String, String> clientAddresses,
            IntConsumer beforeAllUp) {
        return start(size, heap, clientAddresses, beforeAllUp, Placement.scratch());
    }

    /** A cluster on the placement's ports {@code cassandra.native} and {@code cassandra.storage}, node i in folder {@code node-<i>}. */
    public static EmbeddedCassandraCluster start(int size, String heap, Placement placement) {
        return start(size, heap, Map.of(), port -> { }, placement);
    }

    private static EmbeddedCassandraCluster start(int size, String heap, Map<String, String> clientAddresses,
            IntConsumer beforeAllUp, Placement placement) {
        if (size < 1 || size > 9) {
            throw new IllegalArgumentException("a cluster here has 1 to 9 nodes, not " + size);
        }
        List<String> addresses = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            addresses.add("127.0.0." + i);
        }
        int nativePort = placement.ports().pick("cassandra.native", addresses, 0);
        int storagePort = placement.ports().pick("cassandra.storage", addresses, 0);
        String seeds = addresses.get(0) + ":" + storagePort;
        EmbeddedCassandraCluster cluster = new EmbeddedCassandraCluster();
        try {
            // The seed first: the others ask it for the ring when they start.
            EmbeddedCassandra seed = launch(addresses, 0, nativePort, storagePort, seeds, heap, clientAddresses, placement);
            cluster.nodes.add(seed);
            seed.awaitReady(EmbeddedCassandra.READY);
            for (int i = 1; i < size; i++) {
                cluster.nodes.add(launch(addresses, i, nativePort, storagePort, seeds, heap, clientAddresses, placement));
            }
            for (EmbeddedCassandra node : cluster.nodes) {
                node.awaitReady(EmbeddedCassandra.READY);
            }
            beforeAllUp.accept(nativePort);
            cluster.awaitAllUp(Duration.ofSeconds(60));
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private static EmbeddedCassandra launch(List<String> addresses, int index, int nativePort, int storagePort,
            String seeds, String heap, Map<String, String> clientAddresses, Placement placement) {
        String address = addresses.get(index);
        return EmbeddedCassandra.launch(address, nativePort, storagePort, seeds, heap, "dsload-cluster", 8,
                clientAddresses.getOrDefault(address, address),
                placement.folder("node-" + (index + 1), "cassandra-" + address + "-" + nativePort), placement.keepData(),
                false);
    }

    /** Waits until the driver, through the first node, sees every node up. */
    public void awaitAllUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (CqlSession session = nodes.get(0).session(null)) {
            while (true) {
                long up = session.getMetadata().getNodes().values().stream()
                        .filter(n -> n.getState() == NodeState.UP).count();
                if (up == nodes.size()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("only " + up + " of " + nodes.size() + " Cassandra nodes up after "
                            + timeout.toSeconds() + " s: " + session.getMetadata().getNodes().values().stream()
                            .map(EmbeddedCassandraCluster::describe).collect(Collectors.joining(", ")));
                }
                Deadline.sleep(250);
            }
        }
    }

    private static String describe(Node node) {
        return node.getEndPoint() + " " + node.getState();
    }

    public List<EmbeddedCassandra> nodes() {
        return nodes;
    }

    public EmbeddedCassandra node(int index) {
        return nodes.get(index);
    }

    /** Comma-separated host:port of every node, as a contact points field takes it. */
    public String contactPoints() {
        return nodes.stream().map(EmbeddedCassandra::address).collect(Collectors.joining(","));
    }

    @Override
    public void close() {
        nodes.forEach(EmbeddedCassandra::close);
    }
}
