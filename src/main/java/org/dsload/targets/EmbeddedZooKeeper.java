package org.dsload.targets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.common.X509Exception;
import org.dsload.process.Java;
import org.dsload.process.ManagedProcess;

/**
 * Real ZooKeeper servers, one forked JVM per node ({@code QuorumPeerMain} with a generated
 * zoo.cfg, its class path resolved from {@code embedded-targets/zookeeper}): a single standalone
 * server or an ensemble of N, on loopback ports, data in each node's folder ({@link Placement}).
 * Each node can be stopped, killed and restarted on its own ports, to test what clients see when
 * members go away.
 *
 * <p>The four-letter words {@code mntr, srvr, cons, ruok, stat, wchs, conf} are enabled, the
 * admin HTTP server is off, TTL nodes are allowed ({@code extendedTypesEnabled}), one address may
 * hold any number of sessions ({@code maxClientCnxns=0}, S4's model opens thousands from one
 * generator), and transaction logs are not fsynced ({@code forceSync=no}: the machine's disk is
 * shared, and the tests measure the client, not the disk).
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(60);
    private static final String HOST = "127.0.0.1";

    private final List<Node> nodes = new ArrayList<>();

    /** One server of the ensemble, with its ports. */
    public static final class Node {
        final int id;
        final int clientPort;
        final int quorumPort;
        final int electionPort;
        final Path dir;
        final String heap;
        ManagedProcess process;

        Node(int id, String heap, Placement placement) {
            this.id = id;
            this.heap = heap;
            this.clientPort = placement.ports().pick("zookeeper." + id + ".client", HOST);
            this.quorumPort = placement.ports().pick("zookeeper." + id + ".quorum", HOST);
            this.electionPort = placement.ports().pick("zookeeper." + id + ".election", HOST);
            this.dir = placement.folder("node-" + id, "zookeeper-" + clientPort);
        }

        public int clientPort() {
            return clientPort;
        }

        public String address() {
            return HOST + ":" + clientPort;
        }

        public long pid() {
            return process.pid();
        }

        public boolean isRunning() {
            return process != null && process.isAlive();
        }
    }

    private EmbeddedZooKeeper() {
    }

    /** A standalone server. */
    public static EmbeddedZooKeeper single() {
        return start(1, Placement.scratch());
    }

    /** An ensemble of {@code size} nodes (3 or 5), all serving when this returns. */
    public static EmbeddedZooKeeper ensemble(int size) {
        return start(size, Placement.scratch());
    }

    /**
     * A standalone server ({@code size} 1) or an ensemble, node i on the placement's ports
     * {@code zookeeper.<i>.client}, {@code .quorum} and {@code .election}, in its folder {@code node-<i>}.
     */
    public static EmbeddedZooKeeper start(int size, Placement placement) {
        String heap = size == 1 ? "512m" : "256m";
        EmbeddedZooKeeper zk = new EmbeddedZooKeeper();
        try {
            for (int i = 1; i <= size; i++) {
                zk.nodes.add(new Node(i, heap, placement));
            }
            for (Node node : zk.nodes) {
                zk.writeConfig(node);
            }
            for (Node node : zk.nodes) {
                zk.launch(node);
            }
            for (Node node : zk.nodes) {
                awaitServing(node);
            }
            return zk;
        } catch (RuntimeException e) {
            zk.close();
            throw e;
        }
    }

    private void writeConfig(Node node) {
        try {
            Path data = Files.createDirectories(node.dir.resolve("data"));
            StringBuilder cfg = new StringBuilder();
            cfg.append("tickTime=1000\ninitLimit=10\nsyncLimit=5\n");
            cfg.append("dataDir=").append(data).append('\n');
            cfg.append("clientPort=").append(node.clientPort).append('\n');
            cfg.append("clientPortAddress=").append(HOST).append('\n');
            cfg.append("admin.enableServer=false\n");
            cfg.append("4lw.commands.whitelist=mntr,srvr,cons,ruok,stat,wchs,conf\n");
            cfg.append("maxClientCnxns=0\n");
            cfg.append("forceSync=no\n");
            cfg.append("extendedTypesEnabled=true\n");
            cfg.append("autopurge.purgeInterval=0\n");
            if (nodes.size() > 1) {
                for (Node peer : nodes) {
                    cfg.append("server.").append(peer.id).append('=').append(HOST).append(':').append(peer.quorumPort)
                            .append(':').append(peer.electionPort).append('\n');
                }
                Files.writeString(data.resolve("myid"), Integer.toString(node.id), StandardCharsets.US_ASCII);
            }
            Files.writeString(node.dir.resolve("zoo.cfg"), cfg, StandardCharsets.UTF_8);
            Files.writeString(node.dir.resolve("log4j2.properties"), String.join("\n",
                    "status = warn",
                    "appender.console.type = Console",
                    "appender.console.name = console",
                    "appender.console.layout.type = PatternLayout",
                    "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5level %c{1} - %msg%n",
                    "rootLogger.level = warn",
                    "rootLogger.appenderRef.console.ref = console",
                    "logger.quorum.name = org.apache.zookeeper.server.quorum.QuorumPeer",
                    "logger.quorum.level = info", ""), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of ZooKeeper node " + node.id, e);
        }
    }

    private void launch(Node node) {
        if (node.process != null) {
            node.process.restart();
            return;
        }
        List<String> command = new ArrayList<>(List.of(Java.executable(), "-Xms64m", "-Xmx" + node.heap, "-XX:+UseSerialGC",
                "-Dlog4j2.configurationFile=" + node.dir.resolve("log4j2.properties"),
                "-Dzookeeper.admin.enableServer=false", "-Dzookeeper.jmx.log4j.disable=true"));
        command.addAll(TargetClasspath.serverOptions());
        command.addAll(List.of("-cp", TargetClasspath.joined(TargetClasspath.ZOOKEEPER),
                "org.apache.zookeeper.server.quorum.QuorumPeerMain", node.dir.resolve("zoo.cfg").toString()));
        node.process = ManagedProcess.start("zookeeper-" + node.id + ":" + node.clientPort, command, node.dir,
                node.dir.resolve("zookeeper.log"));
    }

    /** Waits until the node answers {@code srvr} with its mode (standalone, leader or follower). */
    private static void awaitServing(Node node) {
        node.process.awaitPort(HOST, node.clientPort, READY);
        node.process.await(() -> mode(node) != null, READY, "ZooKeeper on " + node.address() + " to serve requests");
    }

    /** standalone, leader, follower, or null while the node is not serving. */
    public static String mode(Node node) {
        try {
            String srvr = FourLetterWordMain.send4LetterWord(HOST, node.clientPort, "srvr", false, 1000);
            for (String line : srvr.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring(6).trim();
                }
            }
            return null;
        } catch (IOException | X509Exception.SSLContextException e) {
            return null;
        }
    }

    public List<Node> nodes() {
        return nodes;
    }

    public Node node(int index) {
        return nodes.get(index);
    }

    /** The connect string of every node, as a Connect string field takes it. */
    public String connectString() {
        return nodes.stream().map(Node::address).collect(Collectors.joining(","));
    }

    /** The node currently leading, or the single server. */
    public Node leader() {
        for (Node node : nodes) {
            String mode = node.isRunning() ? mode(node) : null;
            if ("leader".equals(mode) || "standalone".equals(mode)) {
                return node;
            }
        }
        throw new IllegalStateException("no ZooKeeper node leads (" + connectString() + ")");
    }

    /** SIGTERM, then SIGKILL after 5 s. */
    public void stop(Node node) {
        node.process.stop(Duration.ofSeconds(5));
    }

    /** SIGKILL, at once, as a crash. */
    public void kill(Node node) {
        node.process.kill();
    }

    /** Starts a stopped node again on its ports and data, and waits until it serves. */
    public void restart(Node node) {
        launch(node);
        awaitServing(node);
    }

    @Override
    public void close() {
        for (Node node : nodes) {
            if (node.process != null) {
                node.process.stop(Duration.ofSeconds(5));
            }
        }
    }
}
