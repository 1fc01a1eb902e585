package org.dsload.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Deadline;
import org.dsload.process.ProcessTree;
import org.dsload.remote.RmiKeystore;
import org.dsload.targets.Checkout;
import org.dsload.targets.RedisBinary;

/**
 * A distributed test's machines on a {@link HostRig}, each behind a firewall that opens only what
 * docs/distributed.md says its role needs: the store (redis-server, its port), slaves started as on
 * machines of their own ({@code dsload slaves start --address}, a copy of the master's keystore;
 * registry, engine and recording ports), and the master, which runs {@code dsload run --hosts-file}
 * with RMI over SSL (its ports for the slaves' calls float, so it accepts the slaves' addresses).
 */
public final class RigCluster implements AutoCloseable {
    public static final int REGISTRY = 1099;
    public static final int ENGINE = 4000;
    public static final int RECORDING = REGISTRY + 1;
    public static final int REDIS = 6379;
    public static final List<Integer> SLAVE_PORTS = List.of(REGISTRY, ENGINE, RECORDING);
    private static final Pattern RESULTS = Pattern.compile("(?m)^dsload: results in (.+)$");

    private final HostRig rig;
    private final HostRig.Host store;
    private final HostRig.Host master;
    private final List<HostRig.Host> slaves;
    private final Path work;
    private final Path masterKeys;
    private final Path hostsFile;

    /** What a run printed, how it ended and its results folder (null when it made none). */
    public record Run(int exit, String output, Path folder) {
    }

    private RigCluster(HostRig rig, Path work, Path masterKeys, Path hostsFile) {
        this.rig = rig;
        this.store = rig.host(0);
        this.master = rig.host(1);
        this.slaves = rig.hosts().subList(2, rig.hosts().size());
        this.work = work;
        this.masterKeys = masterKeys;
        this.hostsFile = hostsFile;
    }

    /** Makes the hosts (store, master, then the slaves), starts the store and the slaves, sets the firewalls. */
    public static RigCluster start(int slaveCount, Path work) throws IOException, InterruptedException {
        long start = System.nanoTime();
        HostRig rig = HostRig.create(2 + slaveCount);
        try {
            System.out.println("rig: " + rig + " made in " + millisSince(start) + " ms");
            HostRig.Host store = rig.host(0);
            HostRig.Host master = rig.host(1);
            List<HostRig.Host> slaves = rig.hosts().subList(2, rig.hosts().size());
            Path redisLog = work.resolve("store").resolve("redis.log");
            store.start(work.resolve("store"), redisLog, List.of(RedisBinary.path().toString(), "--bind",
                    store.address(), "--port", Integer.toString(REDIS), "--save", "", "--appendonly", "no",
                    "--protected-mode", "no"));
            if (!Deadline.await(() -> read(redisLog).contains("Ready to accept connections"), Duration.ofSeconds(30),
                    Duration.ofMillis(100))) {
                throw new IOException("redis-server did not start in " + store + ": " + read(redisLog));
            }
            store.firewall(List.of(REDIS));

            // the master's keystore, copied with its password file to each slave host as a user copies it
            Path masterKeys = work.resolve("master").resolve("remote-servers");
            RmiKeystore.ensure(masterKeys, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            List<Process> starts = new ArrayList<>();
            List<String> hosts = new ArrayList<>();
            for (HostRig.Host slave : slaves) {
                Path home = work.resolve(slave.address());
                Path keys = Files.createDirectories(home.resolve("remote-servers"));
                for (String file : List.of(RmiKeystore.KEYSTORE, RmiKeystore.PASSWORD_FILE)) {
                    Files.copy(masterKeys.resolve(file), keys.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
                }
                slave.firewall(SLAVE_PORTS);
                starts.add(slave.start(home, home.resolve("slaves-start.out"), List.of(dsload(), "slaves", "start",
                        "--address", slave.address(), "--port", Integer.toString(REGISTRY), "--engine-port",
                        Integer.toString(ENGINE), "--remote-dir", keys.toString(), "--logs",
                        home.resolve("logs").toString(), "--heap", "256m")));
                hosts.add(slave.address() + ":" + REGISTRY);
            }
            long slavesStart = System.nanoTime();
            for (int i = 0; i < starts.size(); i++) {
                Path out = work.resolve(slaves.get(i).address()).resolve("slaves-start.out");
                if (!ProcessTree.awaitExit(starts.get(i), Duration.ofSeconds(150)) || starts.get(i).exitValue() != 0) {
                    throw new IOException("slaves start in " + slaves.get(i) + " failed: " + read(out));
                }
            }
            System.out.println("rig: " + slaves.size() + " slaves started in " + millisSince(slavesStart) + " ms");

            // with RMI over SSL the master's ports for the slaves' calls cannot be pinned
            master.firewall(List.of());
            for (HostRig.Host slave : slaves) {
                master.acceptFrom(slave.address());
            }
            Path hostsFile = Files.writeString(work.resolve("master").resolve("slaves.hosts"),
                    String.join("\n", hosts) + "\n");
            for (HostRig.Host h : rig.hosts()) {
                System.out.println("rig: firewall of " + h + ":\n" + h.firewallRules().strip());
            }
            return new RigCluster(rig, work, masterKeys, hostsFile);
        } catch (IOException | InterruptedException | RuntimeException e) {
            rig.close();
            throw e;
        }
    }

    public HostRig rig() {
        return rig;
    }

    public HostRig.Host store() {
        return store;
    }

    public HostRig.Host master() {
        return master;
    }

    public List<HostRig.Host> slaves() {
        return slaves;
    }

    public Path work() {
        return work;
    }

    /** {@code dsload run} of ekv-profile-get.jmx in the master host, on the slaves, to its end (240 s at most). */
    public Run run(String name, String... extra) throws IOException, InterruptedException {
        Path out = output(name);
        long start = System.nanoTime();
        Process p = startRun(name, extra);
        boolean ended = ProcessTree.awaitExit(p, Duration.ofSeconds(240));
        String output = read(out);
        if (!ended) {
            ProcessTree.stop(p.toHandle(), Duration.ofSeconds(20));
            throw new AssertionError("dsload run did not end in 240 s:\n" + output);
        }
        System.out.println("rig: run " + name + ": exit " + p.exitValue() + " after " + millisSince(start) + " ms");
        return new Run(p.exitValue(), output, resultsOf(output));
    }

    /**
     * Starts {@code dsload run} of ekv-profile-get.jmx in the master host, on the slaves; its output in {@link #output}.
     * Its readers pause 1 ms between GETs: the rig's tests judge what crosses the hosts (every row, the server's
     * count, the slaves' states), not the volume, and a reader at full speed takes a core for the run's seconds.
     */
    public Process startRun(String name, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(dsload(), "run", Checkout.basedir()
                .resolve("test-plans/ekv-profile-get.jmx").toString(), "--hosts-file", hostsFile.toString(),
                "--remote-dir", masterKeys.toString(), "--rmi-hostname", master.address(), "--results",
                work.resolve("master").resolve("results").toString(), "-Jhosts=" + store.address() + ":" + REDIS,
                "-Jthreads=2", "-Jprofiles=200", "-Jthink_ms=1"));
        command.addAll(List.of(extra));
        return master.start(work.resolve("master"), output(name), command);
    }

    /** Where the run of that name prints. */
    public Path output(String name) {
        return work.resolve("master").resolve(name + ".out");
    }

    /** The results folder a run's output names, or null. */
    public static Path resultsOf(String output) {
        Matcher m = RESULTS.matcher(output);
        return m.find() ? Path.of(m.group(1).strip()) : null;
    }

    @Override
    public void close() {
        rig.close();
    }

    private static String dsload() {
        return Checkout.basedir().resolve("bin/dsload").toString();
    }

    public static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "(no " + file + ")";
        } catch (IOException e) {
            return "(" + file + ": " + e.getMessage() + ")";
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
