package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

import org.dsload.cli.ExitCodes;
import org.dsload.process.Deadline;
import org.dsload.process.ProcessTree;
import org.dsload.targets.Checkout;
import org.dsload.targets.RedisBinary;
import org.dsload.testing.HostRig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A distributed run across four hosts of a {@link HostRig}, each behind a firewall that opens only
 * what docs/distributed.md says its role needs: the store (redis-server, its port), two slaves
 * started as on machines of their own ({@code dsload slaves start --address}, a copy of the master's
 * keystore; registry, engine and recording ports), and the master ({@code dsload run --hosts-file},
 * RMI over SSL: its ports for the slaves' calls float, so it accepts the slaves' addresses), their
 * threads started at one instant. Then the same with a slave's registry port, and another's engine and
 * recording ports, dropped by its firewall; and a run in histograms mode with one slave's host cut off
 * for 20 s in its middle.
 */
class MultiHostIT {
    private static final int REGISTRY = 1099;
    private static final int ENGINE = 4000;
    private static final int RECORDING = REGISTRY + 1;
    private static final int REDIS = 6379;
    private static final List<Integer> SLAVE_PORTS = List.of(REGISTRY, ENGINE, RECORDING);
    /** The Slaves section's line when every slave noted when it started its thread groups. */
    private static final Pattern START_SKEW = Pattern.compile("\\(when each slave started its thread groups\\); start "
            + "skew: (\\d+) ms");
    /** The cut-off run: its load's length, when the cut comes into it and how long it lasts (seconds). */
    private static final int CUT_RUN_SECONDS = 30;
    private static final int CUT_AFTER_SECONDS = 6;
    private static final int CUT_SECONDS = 20;
    private static final Pattern RESULTS = Pattern.compile("(?m)^dsload: results in (.+)$");

    private static HostRig rig;
    private static HostRig.Host store;
    private static HostRig.Host master;
    private static List<HostRig.Host> slaves;
    private static Path work;
    private static Path masterKeys;
    private static Path hostsFile;

    @BeforeAll
    static void hosts() throws Exception {
        HostRig.require();
        long start = System.nanoTime();
        rig = HostRig.create(4);
        store = rig.host(0);
        master = rig.host(1);
        slaves = List.of(rig.host(2), rig.host(3));
        work = Checkout.target().resolve("test-results").resolve("multi-host-" + System.currentTimeMillis());
        System.out.println("rig: " + rig + " made in " + millisSince(start) + " ms");

        Path redisLog = work.resolve("store").resolve("redis.log");
        store.start(work.resolve("store"), redisLog, List.of(RedisBinary.path().toString(), "--bind", store.address(),
                "--port", Integer.toString(REDIS), "--save", "", "--appendonly", "no", "--protected-mode", "no"));
        assertTrue(Deadline.await(() -> contains(redisLog, "Ready to accept connections"), Duration.ofSeconds(30),
                Duration.ofMillis(100)), "redis-server did not start in " + store + ": " + read(redisLog));
        store.firewall(List.of(REDIS));

        // the master's keystore, copied with its password file to each slave host as a user copies it
        masterKeys = work.resolve("master").resolve("remote-servers");
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
                    Integer.toString(ENGINE), "--remote-dir", keys.toString(), "--logs", home.resolve("logs").toString(),
                    "--heap", "256m")));
            hosts.add(slave.address() + ":" + REGISTRY);
        }
        long slavesStart = System.nanoTime();
        for (int i = 0; i < starts.size(); i++) {
            Path out = work.resolve(slaves.get(i).address()).resolve("slaves-start.out");
            assertTrue(ProcessTree.awaitExit(starts.get(i), Duration.ofSeconds(150)), "slaves start: " + read(out));
            assertEquals(0, starts.get(i).exitValue(), "slaves start in " + slaves.get(i) + ": " + read(out));
        }
        System.out.println("rig: 2 slaves started in " + millisSince(slavesStart) + " ms");

        // with RMI over SSL the master's ports for the slaves' calls cannot be pinned (see pinnedCallbackPort...)
        master.firewall(List.of());
        for (HostRig.Host slave : slaves) {
            master.acceptFrom(slave.address());
        }
        hostsFile = Files.writeString(work.resolve("master").resolve("slaves.hosts"), String.join("\n", hosts) + "\n");
        for (HostRig.Host h : rig.hosts()) {
            System.out.println("rig: firewall of " + h + ":\n" + h.firewallRules().strip());
        }
    }

    @AfterAll
    static void removeRig() throws Exception {
        if (rig == null) {
            return;
        }
        List<String> made = rig.namespaces();
        rig.close();
        List<String> left = new ArrayList<>(HostRig.existingNamespaces());
        left.retainAll(made);
        assertEquals(List.of(), left, "namespaces of the rig left behind");
    }

    @Test
    void aRunAcrossFirewalledHostsCarriesEverySampleAndTheServerCountsThem() throws Exception {
        Run run = run("across", "-Jduration=4");
        assertEquals(ExitCodes.OK, run.exit(), run.output());
        String summary = Files.readString(run.folder().resolve("summary.txt"));
        List<String> success = summary.lines().filter(l -> l.startsWith("Success ")).toList();
        assertFalse(success.isEmpty(), summary);
        success.forEach(l -> assertTrue(l.endsWith("100.00%"), l));
        String crossCheck = summary.lines().filter(l -> l.startsWith("Cross-check [dsload reported, server counted]"))
                .findFirst().orElseThrow(() -> new AssertionError("no cross-check line:\n" + summary));
        assertTrue(crossCheck.contains("(match)"), crossCheck);
        for (HostRig.Host slave : slaves) {
            assertTrue(summary.lines().anyMatch(l -> l.matches(Pattern.quote(slave.address() + ":" + REGISTRY)
                    + "\\s+used\\s+[1-9]\\d*\\s.*")), "slave " + slave + " in the Slaves section:\n" + summary);
        }
        // one start instant across the hosts: each slave was given it in its own clock over its recording port
        assertTrue(run.output().contains("were given the start instant in their own clocks"), run.output());
        Matcher skew = START_SKEW.matcher(summary);
        assertTrue(skew.find(), "no start skew of the thread groups' starts:\n" + summary);
        System.out.println("rig: " + skew.group());
        assertTrue(Long.parseLong(skew.group(1)) < 500, skew.group());
    }

    @Test
    void slavesWhoseRegistryEngineOrRecordingPortTheFirewallDropsRefuseTheRunBeforeAnyLoadNamingThePort()
            throws Exception {
        HostRig.Host noRegistry = slaves.get(0);
        HostRig.Host registryOnly = slaves.get(1);
        noRegistry.firewall(List.of(ENGINE, RECORDING));
        registryOnly.firewall(List.of(REGISTRY));
        try {
            Run run = run("ports-dropped", "-Jduration=4");
            assertEquals(ExitCodes.REFUSED_AT_START, run.exit(), run.output());
            assertTrue(run.output().contains("slave(s) cannot be reached, so no load was started: "), run.output());
            assertTrue(run.output().contains(noRegistry.address() + ":" + REGISTRY + " (its RMI registry port " + REGISTRY
                    + " did not answer within 3 s"), run.output());
            assertTrue(run.output().contains(registryOnly.address() + ":" + REGISTRY + " (its registry answered, but its "
                    + "recording port " + RECORDING + " (dsload.recording.port, where the runner fetches its recordings "
                    + "after the run) did not answer within 3 s"), run.output());
            assertTrue(run.output().contains("; its registry answered, but its engine port " + ENGINE + " (at "
                    + registryOnly.address() + ", as its registry names it; server.rmi.localport) did not answer within "
                    + "10 s"), run.output());
            assertFalse(run.output().contains("(JMeter pid"), "JMeter started:\n" + run.output());
        } finally {
            noRegistry.firewall(SLAVE_PORTS);
            registryOnly.firewall(SLAVE_PORTS);
        }
    }

    @Test
    void aPinnedCallbackPortWithSslIsRefusedBeforeJMeterStarts() throws Exception {
        Run run = run("pinned-callback", "-Jclient.rmi.localport=4000");
        assertEquals(ExitCodes.REFUSED_AT_START, run.exit(), run.output());
        assertTrue(run.output().contains("client.rmi.localport=4000 cannot work with RMI over SSL"), run.output());
        assertFalse(run.output().contains("(JMeter pid"), "JMeter started:\n" + run.output());
    }

    @Test
    void aSlaveCutOffMidRunIsNamedWithWhenAndWhyAndItsRecordingFetchedOnceItIsBack() throws Exception {
        HostRig.Host cut = slaves.get(0);
        HostRig.Host other = slaves.get(1);
        Path slaveLog = work.resolve(cut.address()).resolve("logs");
        String started = "starts its threads at the run's start instant";
        long startsBefore = logsSay(slaveLog, started);
        long start = System.nanoTime();
        Process p = startRun("cut-off", "--record", "histograms", "-Jduration=" + CUT_RUN_SECONDS);
        Path out = work.resolve("master").resolve("cut-off.out");
        // the cut comes a fifth of the way into the load: from when the slave started its threads
        assertTrue(Deadline.await(() -> logsSay(slaveLog, started) > startsBefore,
                Duration.ofSeconds(120), Duration.ofMillis(100)), "the load did not start:\n" + read(out));
        long loadStart = System.nanoTime();
        Deadline.sleep(CUT_AFTER_SECONDS * 1000L);
        long cutAt = System.nanoTime();
        cut.cutOff();
        try {
            Deadline.sleep(CUT_SECONDS * 1000L);
        } finally {
            cut.reconnect();
        }
        System.out.println("rig: " + cut + " cut off from " + (cutAt - loadStart) / 1_000_000 + " ms into the load for "
                + millisSince(cutAt) + " ms");
        boolean ended = ProcessTree.awaitExit(p, Duration.ofSeconds(240));
        String output = read(out);
        assertTrue(ended, "dsload run did not end in 240 s:\n" + output);
        System.out.println("rig: run cut-off: exit " + p.exitValue() + " after " + millisSince(start) + " ms");
        Matcher m = RESULTS.matcher(output);
        assertTrue(m.find(), output);
        String summary = Files.readString(Path.of(m.group(1).strip()).resolve("summary.txt"));
        String cutSlave = cut.address() + ":" + REGISTRY;
        String otherSlave = other.address() + ":" + REGISTRY;
        // not lost for good: its host answered nothing, then answered again, and the run waited for it
        assertTrue(output.contains("dsload: slave " + cutSlave + " answers again after "), output);
        assertFalse(output.contains("lost slave " + cutSlave), output);
        assertTrue(summary.contains("Resumed: " + cutSlave + " from "), summary);
        assertTrue(summary.contains("its host did not answer a connection to its RMI registry port " + REGISTRY), summary);
        assertTrue(summary.lines().anyMatch(l -> l.matches(Pattern.quote(cutSlave) + "\\s+resumed\\s+[1-9]\\d*\\s.*")),
                summary);
        // the other engine's results intact
        assertTrue(summary.lines().anyMatch(l -> l.matches(Pattern.quote(otherSlave)
                + "\\s+used\\s+[1-9]\\d*\\s.*\\s100\\.00%\\s.*")), summary);
        // the cut-off engine kept recording on its own disk: fetched once it was back
        assertTrue(output.contains("fetched ") && output.contains(" files (recordings, server gauges) of slave " + cutSlave),
                output);
        assertEquals(ExitCodes.LOAD_INCOMPLETE, p.exitValue(), output);
    }

    private record Run(int exit, String output, Path folder) {
    }

    /** {@code dsload run} of the Redis plan in the master host, on the two slaves, to its end. */
    private static Run run(String name, String... extra) throws IOException, InterruptedException {
        Path out = work.resolve("master").resolve(name + ".out");
        long start = System.nanoTime();
        Process p = startRun(name, extra);
        boolean ended = ProcessTree.awaitExit(p, Duration.ofSeconds(240));
        String output = read(out);
        assertTrue(ended, "dsload run did not end in 240 s:\n" + output);
        System.out.println("rig: run " + name + ": exit " + p.exitValue() + " after " + millisSince(start) + " ms");
        Matcher m = RESULTS.matcher(output);
        return new Run(p.exitValue(), output, m.find() ? Path.of(m.group(1).strip()) : null);
    }

    /** Starts {@code dsload run} of the Redis plan in the master host, on the two slaves; its output in {@code <name>.out}. */
    private static Process startRun(String name, String... extra) throws IOException {
        Path out = work.resolve("master").resolve(name + ".out");
        List<String> command = new ArrayList<>(List.of(dsload(), "run", Checkout.basedir()
                .resolve("test-plans/ekv-profile-get.jmx").toString(), "--hosts-file", hostsFile.toString(),
                "--remote-dir", masterKeys.toString(), "--rmi-hostname", master.address(), "--results",
                work.resolve("master").resolve("results").toString(), "-Jhosts=" + store.address() + ":" + REDIS,
                "-Jthreads=2", "-Jprofiles=200"));
        command.addAll(List.of(extra));
        return master.start(work.resolve("master"), out, command);
    }

    /** How many times the logs in the folder (a slave's JMeter logs) hold the text. */
    private static long logsSay(Path folder, String text) {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (var files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".log")).mapToLong(f -> read(f).split(Pattern.quote(text), -1)
                    .length - 1).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private static String dsload() {
        return Checkout.basedir().resolve("bin/dsload").toString();
    }

    private static boolean contains(Path file, String text) {
        return read(file).contains(text);
    }

    private static String read(Path file) {
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
