package org.dsload.targets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.cassandra.CassandraDriverClose;
import org.dsload.process.Folders;
import org.dsload.process.ManagedProcess;
import org.dsload.process.Ports;
import org.dsload.process.ProcFs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;

/**
 * A real Apache Cassandra 5.0 node in a JVM of its own (Java 17, see {@link CassandraJava}),
 * its class path resolved by Maven ({@link TargetClasspath}), its data and log in its folder
 * ({@code target/embedded/cassandra-<address>-<port>/} by default, see {@link Placement}). Ready means the native port is open and a
 * CQL query was answered. One node is started by {@link #start()}; several on loopback
 * addresses by {@link EmbeddedCassandraCluster}. {@link #stop()} and {@link #restart()} keep the
 * data and the ports, for tests of what a client sees when a node goes away and comes back.
 */
public final class EmbeddedCassandra implements AutoCloseable {
    /** The data centre SimpleSnitch puts every node in. */
    public static final String DATACENTER = "datacenter1";
    static final Duration READY = Duration.ofSeconds(240);

    /** Options of Cassandra's own conf/jvm17-server.options that a node needs to run. */
    private static final List<String> JVM17_OPTIONS = List.of(
            "-XX:+UseG1GC", "-XX:+ParallelRefProcEnabled", "-XX:MaxTenuringThreshold=1",
            "-XX:G1HeapRegionSize=16m", "-XX:G1RSetUpdatingPauseTimePercent=5", "-XX:MaxGCPauseMillis=300",
            "-XX:InitiatingHeapOccupancyPercent=70", "-Djdk.attach.allowAttachSelf=true",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dio.netty.allocator.useCacheForAllThreads=true",
            "-Dio.netty.allocator.maxOrder=11");

    /**
     * Without these a node waits for gossip to settle and for the ring delay (about a minute in
     * all); a test node has nobody to wait for, and cluster nodes here join without streaming.
     */
    private static final List<String> FAST_START = List.of(
            "-Dcassandra.skip_wait_for_gossip_to_settle=0", "-Dcassandra.ring_delay_ms=1000",
            "-Dcassandra.consistent.rangemovement=false", "-Dcassandra.superuser_setup_delay_ms=0");

    /**
     * Cassandra's approximate clock, which its timeouts and expiries read, is sampled every 2 ms by
     * default: 500 wake-ups a second, most of what an idle node costs (1.3 of its 1.5 % of a core here).
     * Every 10 ms is precise enough for timeouts of seconds on a node that shares a few cores with its load.
     */
    private static final List<String> QUIET_CLOCK = List.of("-Dcassandra.approximate_time_precision_ms=10");

    private final CassandraConfig.Node node;
    private final boolean keepData;
    private final String name;
    private final List<String> command;
    private ManagedProcess process;
    private long launchedNanos;
    private Duration startTime;

    private EmbeddedCassandra(CassandraConfig.Node node, List<String> command, boolean keepData) {
        this.node = node;
        this.keepData = keepData;
        this.name = "cassandra-" + node.address() + ":" + node.nativePort();
        this.command = command;
    }

    /** The superuser of a node started {@link #startWithLogins() with logins}. */
    public static final String SUPERUSER = "cassandra";
    /** Its password: Cassandra's own default, on a node that listens on loopback only (serve adds a role of its own). */
    public static final String SUPERUSER_PASSWORD = "cassandra";

    /** One node on 127.0.0.1 with free ports and the default heap, ready when this returns. */
    public static EmbeddedCassandra start() {
        return start(Placement.scratch(), false);
    }

    /**
     * One node that requires a login and checks permissions (PasswordAuthenticator,
     * CassandraAuthorizer), as production clusters do; {@link #session} logs in as
     * {@value #SUPERUSER}, which creates the roles a test needs.
     */
    public static EmbeddedCassandra startWithLogins() {
        return start(Placement.scratch(), true);
    }

    /** One node on 127.0.0.1, ports {@code cassandra.native} and {@code cassandra.storage}, folder {@code node-1}. */
    public static EmbeddedCassandra start(Placement placement) {
        return start(placement, false);
    }

    /** As {@link #start(Placement)}, requiring logins as {@link #startWithLogins()} does. */
    public static EmbeddedCassandra startWithLogins(Placement placement) {
        return start(placement, true);
    }

    private static EmbeddedCassandra start(Placement placement, boolean logins) {
        String host = "127.0.0.1";
        int nativePort = placement.ports().pick("cassandra.native", host);
        int storagePort = placement.ports().pick("cassandra.storage", host);
        EmbeddedCassandra node = launch(host, nativePort, storagePort, host + ":" + storagePort,
                defaultHeap(), "dsload", 16, host, placement.folder("node-1", "cassandra-" + host + "-" + nativePort),
                placement.keepData(), logins);
        try {
            node.awaitReady(READY);
            return node;
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    /** Heap of a test node: {@code -Ddsload.cassandra.heap} or 768m. */
    static String defaultHeap() {
        return System.getProperty("dsload.cassandra.heap", "768m");
    }

    /** Forks a node without waiting for it; its folder is emptied first unless its data is kept. */
    static EmbeddedCassandra launch(String address, int nativePort, int storagePort, String seeds, String heap,
            String clusterName, int tokens, String clientAddress, Path dir, boolean keepData, boolean logins) {
        try {
            if (!keepData) {
                Folders.deleteTree(dir);
            }
            CassandraConfig.Node node = new CassandraConfig.Node(address, nativePort, storagePort, seeds, dir,
                    clientAddress, logins);
            Path yaml = CassandraConfig.writeYaml(node, clusterName, tokens);
            Path logback = CassandraConfig.writeLogback(dir);
            List<String> command = new ArrayList<>();
            command.add(CassandraJava.executable().toString());
            command.addAll(List.of("-Xms" + heap, "-Xmx" + heap, "-Xss256k"));
            command.addAll(JVM17_OPTIONS);
            command.addAll(FAST_START);
            command.addAll(QUIET_CLOCK);
            // the native libraries Cassandra unpacks (lz4's, at each start) in the node's folder, not in the
            // machine's /tmp, where those of every node that did not end by itself were left behind
            Path tmp = dir.resolve("tmp");
            Folders.deleteTree(tmp);
            command.add("-Djava.io.tmpdir=" + Files.createDirectories(tmp));
            command.addAll(TargetClasspath.serverOptions());
            command.addAll(List.of(
                    "-Djava.net.preferIPv4Stack=true",
                    "-Dcassandra-foreground=yes",
                    "-Dcassandra.config=" + yaml.toUri(),
                    "-Dcassandra.storagedir=" + dir,
                    "-Dcassandra.logdir=" + dir.resolve("logs"),
                    "-Dcassandra.triggers_dir=" + Files.createDirectories(dir.resolve("triggers")),
                    "-Dlogback.configurationFile=" + logback.toUri(),
                    "-Dcassandra.jmx.local.port=" + Ports.free("127.0.0.1"),
                    "-cp", TargetClasspath.joined(TargetClasspath.CASSANDRA),
                    "org.apache.cassandra.service.CassandraDaemon"));
            EmbeddedCassandra cassandra = new EmbeddedCassandra(node, command, keepData);
            cassandra.launch0();
            return cassandra;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a Cassandra node in " + dir + ": " + e.getMessage(), e);
        }
    }

    private void launch0() {
        launchedNanos = System.nanoTime();
        startTime = null;
        if (process == null) {
            process = ManagedProcess.start(name, command, node.dir(), node.dir().resolve("cassandra.log"));
        } else {
            process.restart();
        }
    }

    /** Waits for the native port, then for a CQL query to be answered. */
    void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        process.awaitPort(host(), port(), timeout);
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        process.await(this::answersCql, left, "a CQL query to be answered on " + address());
        startTime = Duration.ofNanos(System.nanoTime() - launchedNanos);
    }

    private boolean answersCql() {
        try (CqlSession session = session(null)) {
            return session.execute("SELECT release_version FROM system.local").one() != null;
        }
    }

    /**
     * A plain driver session to this node, for tests that set up or check data behind the
     * elements' back (as the superuser on a node with logins). Close it.
     */
    public CqlSession session(String keyspace) {
        DriverConfigLoader config = CassandraDriverClose.promptly(DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, false))
                .build();
        var builder = CqlSession.builder().withConfigLoader(config)
                .addContactPoint(new InetSocketAddress(host(), port())).withLocalDatacenter(DATACENTER);
        if (node.logins()) {
            builder.withAuthCredentials(SUPERUSER, SUPERUSER_PASSWORD);
        }
        if (keyspace != null) {
            builder.withKeyspace(keyspace);
        }
        return builder.build();
    }

    /** Starts the node again on the same address, ports and data after {@link #stop()} or {@link #kill()}. */
    public void restart() {
        launch0();
        awaitReady(READY);
    }

    /** SIGTERM: the node drains and tells its peers it is going (they mark it down at once). */
    public void stop() {
        process.stop(Duration.ofSeconds(30));
    }

    /** SIGKILL: peers notice only through their failure detector. */
    public void kill() {
        process.kill();
    }

    /**
     * SIGSTOP: sockets stay open, nothing is answered. Returns once every thread of the node is
     * stopped (a busy machine can take a moment to stop a few hundred threads, and a request sent
     * meanwhile could still be answered).
     */
    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    public String host() {
        return node.address();
    }

    /** The native (CQL) port. */
    public int port() {
        return node.nativePort();
    }

    public int storagePort() {
        return node.storagePort();
    }

    /** host:port, as a contact points field takes it. */
    public String address() {
        return host() + ":" + port();
    }

    /** The command line that starts this node in the foreground (from its own folder), for a fault schedule's restarts. */
    public List<String> command() {
        return List.copyOf(command);
    }

    /** The node's folder: its data, commit log and log. */
    public Path dir() {
        return node.dir();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    public Path log() {
        return process.log();
    }

    /** From launch to the first CQL answer, or null before the node was ready. */
    public Duration startTime() {
        return startTime;
    }

    /** Resident memory of the node's JVM in bytes (from /proc), or -1 where that cannot be read. */
    public long residentBytes() {
        return ProcFs.residentBytes(pid());
    }

    /** Kills the node and deletes its data (unless its placement keeps it), keeping its log and configuration. */
    @Override
    public void close() {
        if (process != null) {
            if (keepData) {
                process.stop(Duration.ofSeconds(30)); // drains its memtables into the data it keeps
                return;
            }
            // Nothing of a test node's data is kept, so it need not drain: be quick.
            process.kill();
            for (String data : List.of("data", "commitlog", "hints", "saved_caches", "cdc_raw")) {
                try {
                    Folders.deleteTree(node.dir().resolve(data));
                } catch (IOException e) {
                    // left for the next start in this folder, which empties it anyway
                }
            }
        }
    }
}
