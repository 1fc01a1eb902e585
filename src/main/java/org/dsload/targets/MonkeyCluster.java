package org.dsload.targets;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.process.Commands;
import org.dsload.process.Ports;
import org.dsload.process.ProcessTree;

/**
 * What test-plans/cassandra-monkey.jmx needs on this machine: a 3-node embedded cluster whose
 * third node clients reach through a dsload fault proxy (the node advertises the proxy's address,
 * 127.0.0.13, as its client address, so the driver's own discovery goes through it), the node's
 * pid file and a start script for kill and restart, and a size-limited volume for disk full.
 * The embedded node keeps its data on the build's disk, which disk full must never fill: the
 * volume stands in for the node's data volume, so that fault is applied and reverted for real but
 * does not reach Cassandra here.
 */
public final class MonkeyCluster implements AutoCloseable {
    static final String FAULTY = "127.0.0.3";
    static final String PROXIED = "127.0.0.13";
    private final EmbeddedCassandraCluster cluster;
    private final FaultProxy proxy;
    private final Path pidfile;
    private final Path volume;
    private final boolean mounted;
    private final int nativePort;

    private MonkeyCluster(EmbeddedCassandraCluster cluster, FaultProxy proxy, Path pidfile, Path volume, boolean mounted,
            int nativePort) {
        this.cluster = cluster;
        this.proxy = proxy;
        this.pidfile = pidfile;
        this.volume = volume;
        this.mounted = mounted;
        this.nativePort = nativePort;
    }

    public static MonkeyCluster start() throws Exception {
        AtomicReference<FaultProxy> proxy = new AtomicReference<>();
        int control = Ports.free();
        EmbeddedCassandraCluster cluster;
        try {
            cluster = EmbeddedCassandraCluster.start(3, System.getProperty("dsload.cassandra.cluster.heap", "512m"),
                    Map.of(FAULTY, PROXIED), port -> {
                        try {
                            proxy.set(FaultProxy.start(List.of(new FaultProxy.RouteSpec("node3",
                                    new InetSocketAddress(PROXIED, port), new InetSocketAddress(FAULTY, port))),
                                    new InetSocketAddress("127.0.0.1", control)));
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
        } catch (RuntimeException e) {
            if (proxy.get() != null) {
                proxy.get().close();
            }
            throw e;
        }
        EmbeddedCassandra node3 = cluster.node(2);
        Path dir = Checkout.work("monkey");
        Files.createDirectories(dir);
        Path pidfile = dir.resolve("node3.pid");
        Files.writeString(pidfile, node3.pid() + "\n", StandardCharsets.UTF_8);
        Path script = dir.resolve("start-node3.sh");
        Files.writeString(script, "#!/bin/sh\ncd " + quote(node3.dir().toString()) + "\nexec "
                + node3.command().stream().map(MonkeyCluster::quote).collect(Collectors.joining(" ")) + "\n",
                StandardCharsets.UTF_8);
        script.toFile().setExecutable(true);
        Path volume = dir.resolve("node3-volume");
        Files.createDirectories(volume);
        boolean mounted = Volume.mount(volume, 32);
        return new MonkeyCluster(cluster, proxy.get(), pidfile, volume, mounted, node3.port());
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The plan's -J properties that point it at this cluster. */
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hosts", cluster.node(0).address() + "," + cluster.node(1).address());
        p.put("replication_factor", "3");
        p.put("fault_proxy", proxy.controlAddress());
        p.put("node3_host", FAULTY);
        p.put("node3_port", Integer.toString(nativePort));
        p.put("node3_pidfile", pidfile.toString());
        p.put("node3_start", pidfile.resolveSibling("start-node3.sh").toString());
        p.put("node3_log", cluster.node(2).dir().resolve("restarted.log").toString());
        p.put("node3_data", volume.toString());
        return p;
    }

    public EmbeddedCassandraCluster cluster() {
        return cluster;
    }

    public FaultProxy proxy() {
        return proxy;
    }

    public Path volume() {
        return volume;
    }

    public boolean volumeMounted() {
        return mounted;
    }

    /** The third node's process now (a restart by a fault replaces it). */
    public long node3Pid() throws IOException {
        return Long.parseLong(Files.readString(pidfile, StandardCharsets.UTF_8).trim());
    }

    @Override
    public void close() throws Exception {
        // a node restarted by a fault is no child of the embedded cluster: stop it by its pid file
        try {
            ProcessTree.alive(node3Pid()).ifPresent(p -> ProcessTree.stop(p, Duration.ofSeconds(20)));
        } finally {
            cluster.close();
            proxy.close();
            if (mounted) {
                Volume.unmount(volume);
            }
        }
    }

    /** A size-limited tmpfs: the small dedicated volume disk full is meant for. Mounting needs root. */
    public static final class Volume {
        private static final Duration MOUNT_LIMIT = Duration.ofSeconds(30);

        private Volume() {
        }

        public static boolean mount(Path at, int mebibytes) throws Exception {
            return run(List.of("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m", "dsload-faults", at.toString()));
        }

        public static void unmount(Path at) throws Exception {
            if (!run(List.of("umount", at.toString()))) {
                throw new IllegalStateException("could not unmount " + at);
            }
        }

        private static boolean run(List<String> command) throws Exception {
            Commands.Result r = Commands.run(command, MOUNT_LIMIT);
            if (r.exit() != 0) {
                System.err.println("dsload: " + String.join(" ", command) + " failed (mounting needs root): "
                        + r.output().strip());
            }
            return r.exit() == 0;
        }
    }
}
