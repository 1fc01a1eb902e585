package org.dsload.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.dsload.plans.PlanRuns;
import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.Folders;
import org.dsload.process.Ports;
import org.dsload.report.LabelStats;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.targets.RedisBinary;
import org.dsload.testing.DsloadProcess;
import org.dsload.testing.HostPrivileges;
import org.dsload.testing.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import redis.clients.jedis.Jedis;

/**
 * {@code bin/dsload serve} as a user runs it: every target serves its shipped plan (run headless
 * against the printed properties, every sample a success), and once serve is stopped (SIGTERM, or
 * SIGKILL) no process of it is left and every port is closed. Two serves run side by side.
 */
@Timeout(900)
class ServeIT {
    private static final Duration START = Duration.ofMinutes(5);
    private static final Duration STOP = Duration.ofSeconds(90);
    private static final Duration PLAN = Duration.ofMinutes(4);

    /** Small runs of each target's plan: the point is that they reach the server, not how fast. */
    private static final Map<String, Map<String, String>> PLAN_RUNS = Map.of(
            "ekv-profile-get.jmx", Map.of("threads", "2", "duration", "3", "loops", "1000", "profiles", "200"),
            "zk-latencies.jmx", Map.of("znodes", "100", "watches", "20"),
            "kairosdb-write.jmx", Map.of("threads", "2", "ramp_step", "0", "repeats", "4", "paced", "false"),
            "influxdb-write.jmx", Map.of("rate", "100", "duration", "3", "threads", "10", "warmup", "0"),
            "cassandra-ycsb.jmx", Map.of("recordcount", "200", "operations", "400", "threads", "4", "load_threads", "2",
                    "duration", "60"));

    @Test
    void eachTargetServesItsShippedPlanAndNothingOfItOutlivesTheServe() throws Exception {
        List<String> targets = new ArrayList<>(List.of("redis", "--logins", "redis-cluster", "zookeeper", "kairosdb"));
        if (EmbeddedInfluxDb.binary().isPresent()) {
            targets.add("influxdb");
        } else if ("true".equals(System.getenv(EmbeddedInfluxDb.REQUIRED_ENV))) {
            fail(EmbeddedInfluxDb.missingMessage() + ", and " + EmbeddedInfluxDb.REQUIRED_ENV + "=true");
        } else {
            System.out.println("dsload: influxdb not served here: " + EmbeddedInfluxDb.missingMessage());
        }
        serveRunAndStop(targets, targets.stream().filter(t -> !t.startsWith("--"))
                .map(t -> t.equals("redis") ? "redis-logins" : t).toList());
    }

    /** A node that requires a login: the plan gets the user and env:NAME for the password, which is never printed. */
    @Test
    void aCassandraNodeWithLoginsServesTheYcsbPlan() throws Exception {
        serveRunAndStop(List.of("cassandra", "--logins"), List.of("cassandra-logins"));
    }

    /** The options of the targets: a ZooKeeper ensemble, KairosDB on a Cassandra node of its own, with a login. */
    @Test
    void anEnsembleAndKairosDbOnCassandraServeTheirPlansToo() throws Exception {
        serveRunAndStop(List.of("zookeeper", "--nodes", "3", "kairosdb", "--datastore", "cassandra", "--logins"),
                List.of("zookeeper-nodes-3", "kairosdb-datastore-cassandra-logins"));
    }

    /** With --keep-going a member of an ensemble killed outright leaves the others serving, as a fault test needs. */
    @Test
    void aKilledMemberLeavesTheOthersServingWithKeepGoing() throws Exception {
        try (ServeProcess serve = ServeProcess.start("zookeeper", "--nodes", "3", "--keep-going")) {
            assertTrue(serve.awaitServing(START), "serve did not come up:\n" + serve.output());
            List<ProcessHandle> children = serve.children();
            String hosts = serve.targets().get("zookeeper-nodes-3").get("hosts");
            long victim = serve.pids("zookeeper-nodes-3").get(0);
            assertEquals(0, Commands.run(List.of("kill", "-KILL", Long.toString(victim)), Duration.ofSeconds(10)).exit());
            assertTrue(serve.awaitLine("dsload: zookeeper-nodes-3: pid " + victim + " ended on its own; the others serve "
                    + "on (--keep-going)", Duration.ofSeconds(30)), serve.output());
            try (org.apache.curator.framework.CuratorFramework client = org.apache.curator.framework.CuratorFrameworkFactory
                    .newClient(hosts, 10_000, 5_000, new org.apache.curator.retry.RetryNTimes(10, 500))) {
                client.start();
                assertTrue(client.blockUntilConnected(60, java.util.concurrent.TimeUnit.SECONDS), "the ensemble serves");
                client.create().forPath("/after-the-kill", "two of three".getBytes());
                assertEquals("two of three", new String(client.getData().forPath("/after-the-kill")));
            }
            assertTrue(serve.process().isAlive(), serve.output());
            assertFalse(serve.said("stopping the others"), serve.output());
            assertEquals(0, serve.terminate(STOP), serve.output());
            assertTrue(serve.output().contains("dsload: every server stopped"), serve.output());
            assertNothingLeft(children, ServeProcess.addresses(Map.of("hosts", hosts)), serve.folder());
        }
    }

    private static void serveRunAndStop(List<String> targets) throws Exception {
        serveRunAndStop(targets, targets);
    }

    /** Serves the targets (their names and options), runs each one's plan, stops the serve with SIGTERM. */
    private static void serveRunAndStop(List<String> args, List<String> labels) throws Exception {
        try (ServeProcess serve = ServeProcess.start(args.toArray(String[]::new))) {
            assertTrue(serve.awaitServing(START), "serve did not come up:\n" + serve.output());
            Map<String, Map<String, String>> served = serve.targets();
            assertEquals(labels, new ArrayList<>(served.keySet()), serve.output());
            List<ProcessHandle> children = serve.children();
            List<String> addresses = new ArrayList<>();
            Map<String, Path> secrets = serve.secrets();
            for (Map.Entry<String, Map<String, String>> target : served.entrySet()) {
                addresses.addAll(ServeProcess.addresses(target.getValue()));
                runPlan(target.getKey(), target.getValue(), secrets);
            }
            assertEquals(0, serve.terminate(STOP), serve.output());
            assertTrue(serve.output().contains("dsload: every server stopped"), serve.output());
            assertNothingLeft(children, addresses, serve.folder());
            assertFalse(Files.exists(Path.of(serve.folder())), "the fresh folder is deleted: " + serve.folder());
        }
    }

    /**
     * Runs the shipped plan of the target (named as serve prints it, with its options) against the
     * printed properties; one that names a password by env:NAME runs as a user does after the
     * export line serve printed, and the password appears nowhere in what the run left.
     */
    private static void runPlan(String label, Map<String, String> printed, Map<String, Path> secrets) throws Exception {
        String target = label.replaceFirst("-(nodes|datastore|logins).*$", "");
        String plan = switch (target) {
            case "redis", "redis-cluster" -> "ekv-profile-get.jmx";
            case "zookeeper" -> "zk-latencies.jmx";
            case "kairosdb" -> "kairosdb-write.jmx";
            case "influxdb" -> "influxdb-write.jmx";
            case "cassandra" -> "cassandra-ycsb.jmx";
            default -> throw new IllegalArgumentException(target);
        };
        Map<String, String> properties = new LinkedHashMap<>(PLAN_RUNS.get(plan));
        properties.putAll(printed);
        Map<String, String> environment = new LinkedHashMap<>();
        for (String value : printed.values()) {
            if (value.startsWith("env:")) {
                String variable = value.substring(4);
                assertTrue(secrets.containsKey(variable), "no export line for " + variable);
                environment.put(variable, Files.readString(secrets.get(variable)).strip());
            }
        }
        if (!environment.isEmpty()) {
            runPlanWithLogin(target, plan, properties, environment);
            return;
        }
        PlanRuns.Result result = PlanRuns.run(plan, properties, PLAN, false);
        // what is judged here is the served store, not the generator's pace: a machine busy with other test JVMs may
        // leave a few of a rate plan's arrivals unsent (the InfluxDB plan once dropped 4 of 301), which the run
        // reports as its one finding; every request it sent must still have succeeded
        PlanRuns.assertRan(result.outcome(), target + ":\n" + result.console());
        LabelStats all = result.outcome().summary().total();
        assertTrue(all.requests() > 0, target + " had no requests");
        assertEquals(1.0, all.successRatio(), target + ": " + all.requests() + " requests, not all successful");
    }

    private static void runPlanWithLogin(String target, String plan, Map<String, String> properties,
            Map<String, String> environment) throws Exception {
        Path results = Files.createDirectories(Checkout.target().resolve("test-results").resolve("serve-logins-"
                + System.nanoTime()));
        List<String> args = new ArrayList<>(List.of("run", PlanRuns.plan(plan).toString(), "--results", results.toString(),
                "--no-dashboard"));
        properties.forEach((k, v) -> args.add("-J" + k + "=" + v));
        try (DsloadProcess run = DsloadProcess.start(environment, args.toArray(String[]::new))) {
            assertEquals(0, run.exitCode(PLAN), target + ":\n" + run.output());
            String summary = Files.readString(run.resultsDir().resolve("summary.txt"));
            assertTrue(summary.lines().anyMatch(l -> l.startsWith("Success ") && l.endsWith(" 100.00%")), summary);
            for (String password : environment.values()) {
                assertFalse(run.output().contains(password), "the password was printed:\n" + run.output());
                try (Stream<Path> files = Files.walk(run.resultsDir())) {
                    for (Path file : files.filter(Files::isRegularFile).toList()) {
                        assertFalse(Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1).contains(password),
                                "the password is in " + file);
                    }
                }
            }
        }
    }

    /**
     * The processes serve had started are gone, and none still runs in its folder (one started
     * after the list was taken), and the ports no longer accept connections.
     */
    private static void assertNothingLeft(List<ProcessHandle> processes, List<String> addresses, String folder)
            throws Exception {
        assertFalse(processes.isEmpty());
        for (ProcessHandle p : processes) {
            assertTrue(Deadline.await(() -> !p.isAlive(), Duration.ofSeconds(30), Duration.ofMillis(100)),
                    "process " + p.pid() + " " + p.info().command().orElse("") + " outlived serve");
        }
        assertTrue(Deadline.await(() -> ServeProcess.runningIn(folder).isEmpty(), Duration.ofSeconds(30),
                Duration.ofMillis(100)), "still running in " + folder + ": " + ServeProcess.runningIn(folder));
        for (String address : addresses) {
            String[] hostPort = address.split(":");
            assertTrue(Ports.awaitClosed(hostPort[0], Integer.parseInt(hostPort[1]), Duration.ofSeconds(10)),
                    address + " still accepts connections");
        }
    }

    @Test
    void killedOutrightServeLeavesNoServerBehind() throws Exception {
        try (ServeProcess serve = ServeProcess.start("redis", "zookeeper")) {
            assertTrue(serve.awaitServing(START), serve.output());
            List<ProcessHandle> children = serve.children();
            assertTrue(children.size() >= 3, "redis-server, ZooKeeper and the watcher: " + children);
            List<String> addresses = new ArrayList<>();
            serve.targets().values().forEach(p -> addresses.addAll(ServeProcess.addresses(p)));
            serve.process().destroyForcibly();
            serve.process().waitFor();
            assertNothingLeft(children, addresses, serve.folder());
            Folders.deleteTree(Path.of(serve.folder())); // a killed serve cannot
        }
    }

    @Test
    void twoServesSideBySideShareNeitherPortsNorFoldersAndADataFolderServesOneAtATime() throws Exception {
        Path data = Checkout.target().resolve("serve-it-data");
        Folders.deleteTree(data);
        String kept;
        try (ServeProcess first = ServeProcess.start("redis", "--data", data.toString());
             ServeProcess second = ServeProcess.start("redis")) {
            assertTrue(first.awaitServing(START), first.output());
            assertTrue(second.awaitServing(START), second.output());
            kept = first.targets().get("redis").get("hosts");
            String two = second.targets().get("redis").get("hosts");
            assertNotEquals(kept, two);
            assertNotEquals(first.folder(), second.folder());
            try (Jedis one = jedis(kept); Jedis other = jedis(two)) {
                one.set("profile:1", "kept");
                assertEquals(null, other.get("profile:1"), "each serve has a server of its own");
            }
            try (ServeProcess third = ServeProcess.start("redis", "--data", data.toString())) {
                assertFalse(third.awaitServing(START));
                assertEquals(1, third.process().waitFor());
                assertTrue(third.output().contains("the data folder " + data + " is in use by another dsload serve (pid "
                        + first.process().pid() + ")"), third.output());
            }
            assertEquals(0, first.ctrlC(STOP), first.output());
            assertTrue(first.said("dsload: SIGINT: stopping the servers"), first.output());
            assertEquals(0, second.terminate(STOP), second.output());
        }
        try (ServeProcess again = ServeProcess.start("redis", "--data", data.toString())) {
            assertTrue(again.awaitServing(START), again.output());
            assertEquals(kept, again.targets().get("redis").get("hosts"), "the port of the last run, free again");
            try (Jedis redis = jedis(kept)) {
                assertEquals("kept", redis.get("profile:1"), "the data of the last run");
            }
            assertEquals(0, again.terminate(STOP));
        }
        Folders.deleteTree(data);
    }

    /**
     * redis-server on a system without OpenSSL's libssl: serve runs in mount and user namespaces of
     * its own where the library folder shows every file but libssl, so the real redis-server fails
     * to load as it would on such a system.
     */
    @Test
    void aRedisServerThatCannotLoadLibsslSaysWhichLibraryIsMissing(@TempDir Path shadow) throws Exception {
        Path binary = RedisBinary.path();
        Path libssl = linkedLibrary(binary, "libssl.so");
        Commands.Result namespaces = Commands.run(List.of("unshare", "-rm", "true"), Duration.ofSeconds(10));
        if (namespaces.exit() != 0) {
            Prerequisites.missing("hiding libssl from redis-server needs user and mount namespaces (unshare -rm: "
                    + namespaces.firstLine() + ")", HostPrivileges.REQUIRED_ENV, "required");
        }
        Path libraries = libssl.getParent();
        Path original = Files.createDirectories(shadow.resolve("original"));
        Path withoutLibssl = Files.createDirectories(shadow.resolve("without-libssl"));
        try (Stream<Path> files = Files.list(libraries)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (!name.startsWith("libssl.so")) {
                    Files.createSymbolicLink(withoutLibssl.resolve(name), original.resolve(name));
                }
            }
        }
        // the library folder stays reachable at original/, and the folder of links takes its place
        List<String> hideLibssl = List.of("unshare", "-rm", "bash", "-c",
                "mount --bind \"$1\" \"$2\" && mount --bind \"$3\" \"$1\" && shift 3 && exec \"$@\"", "hide-libssl",
                libraries.toString(), original.toString(), withoutLibssl.toString());
        try (ServeProcess serve = ServeProcess.start(null, hideLibssl, "redis")) {
            assertFalse(serve.awaitServing(START), serve.output());
            assertEquals(1, serve.process().waitFor(), serve.output());
            assertTrue(serve.said("dsload: redis could not start: redis-server cannot start: this system lacks the shared"
                    + " library " + libssl.getFileName() + " (OpenSSL 3; Debian: apt-get install libssl3); its log is in "),
                    serve.output());
            assertEquals(1, serve.output().lines().filter(l -> l.contains("could not start")).count(),
                    "said once:\n" + serve.output());
            Folders.deleteTree(Path.of(serve.folder()));
        }
    }

    /** The file of the shared library the executable loads whose name starts so, as ldd finds it. */
    private static Path linkedLibrary(Path executable, String prefix) throws Exception {
        Commands.Result ldd = Commands.run(List.of("ldd", executable.toString()), Duration.ofSeconds(10));
        assertEquals(0, ldd.exit(), ldd.output());
        Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(prefix) + "\\S* => (\\S+)").matcher(ldd.output());
        assertTrue(m.find(), executable + " links no " + prefix + ":\n" + ldd.output());
        return Path.of(m.group(1)).toRealPath();
    }

    private static Jedis jedis(String hostPort) {
        return new Jedis(hostPort.split(":")[0], Integer.parseInt(hostPort.split(":")[1]));
    }

    @Test
    void aCtrlCWhileATargetStartsStopsWithoutWaitingUntilItServes() throws Exception {
        try (ServeProcess serve = ServeProcess.start("redis", "cassandra")) {
            assertTrue(serve.awaitLine("dsload: starting cassandra", START), serve.output());
            List<ProcessHandle> children = serve.children(); // redis-server and the watcher; Cassandra's JVM may follow
            assertEquals(0, serve.ctrlC(STOP), serve.output());
            assertTrue(serve.said("dsload: stopped before cassandra had started"), serve.output());
            assertFalse(serve.said("cassandra ready in"), "the stop did not wait for Cassandra:\n" + serve.output());
            assertFalse(serve.said("dsload: serving until"), serve.output());
            assertTrue(serve.said("dsload: stopping redis"), serve.output());
            assertNothingLeft(children, List.of(), serve.folder());
        }
    }

    @Test
    void aTargetThatCannotStartSaysWhyInOneSentenceAndTheOthersAreStopped() throws Exception {
        try (ServeProcess serve = ServeProcess.withJavaOptions("-Ddsload.influxd=/nonexistent/influxd", "redis", "influxdb")) {
            assertFalse(serve.awaitServing(START), serve.output());
            assertEquals(1, serve.process().waitFor());
            assertTrue(serve.output().contains("dsload: influxdb could not start: " + EmbeddedInfluxDb.missingMessage()),
                    serve.output());
            String redisLine = serve.output().lines().filter(l -> l.startsWith("dsload: redis ready in")).findFirst()
                    .orElseThrow(() -> new AssertionError("redis did not start first:\n" + serve.output()));
            long pid = Long.parseLong(redisLine.replaceAll(".*\\(pid (\\d+)\\)$", "$1"));
            assertTrue(Deadline.await(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true),
                    Duration.ofSeconds(30), Duration.ofMillis(100)), "redis-server " + pid + " was left running");
            assertTrue(serve.output().contains("dsload: stopping redis"), serve.output());
            assertTrue(Files.isDirectory(Path.of(serve.folder())), "the logs of a failed start are kept");
            Folders.deleteTree(Path.of(serve.folder()));
        }
    }
}
