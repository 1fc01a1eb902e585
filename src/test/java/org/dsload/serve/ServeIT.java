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

import org.dsload.plans.PlanRuns;
import org.dsload.process.Deadline;
import org.dsload.process.Folders;
import org.dsload.process.Ports;
import org.dsload.report.LabelStats;
import org.dsload.targets.Checkout;
import org.dsload.targets.InfluxDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
            "ekv-profile-get.jmx", Map.of("threads", "2", "duration", "3", "profiles", "200"),
            "zk-latencies.jmx", Map.of("znodes", "100", "watches", "20"),
            "kairosdb-write.jmx", Map.of("threads", "2", "ramp_step", "0", "repeats", "4", "paced", "false"),
            "influxdb-write.jmx", Map.of("rate", "100", "duration", "3", "threads", "10"),
            "cassandra-ycsb.jmx", Map.of("recordcount", "200", "operations", "400", "threads", "4", "load_threads", "2",
                    "duration", "60"));

    @Test
    void eachTargetServesItsShippedPlanAndNothingOfItOutlivesTheServe() throws Exception {
        List<String> targets = new ArrayList<>(List.of("redis", "redis-cluster", "zookeeper", "kairosdb"));
        if (InfluxDb.binary().isPresent()) {
            targets.add("influxdb");
        } else if ("true".equals(System.getenv(InfluxDb.REQUIRED_ENV))) {
            fail(InfluxDb.missingMessage() + ", and " + InfluxDb.REQUIRED_ENV + "=true");
        } else {
            System.out.println("dsload: influxdb not served here: " + InfluxDb.missingMessage());
        }
        serveRunAndStop(targets);
    }

    @Test
    void aCassandraNodeServesTheYcsbPlan() throws Exception {
        serveRunAndStop(List.of("cassandra"));
    }

    private static void serveRunAndStop(List<String> targets) throws Exception {
        try (ServeProcess serve = ServeProcess.start(targets.toArray(String[]::new))) {
            assertTrue(serve.awaitServing(START), "serve did not come up:\n" + serve.output());
            Map<String, Map<String, String>> served = serve.targets();
            assertEquals(targets, new ArrayList<>(served.keySet()), serve.output());
            List<ProcessHandle> children = serve.children();
            List<String> addresses = new ArrayList<>();
            for (Map.Entry<String, Map<String, String>> target : served.entrySet()) {
                addresses.addAll(ServeProcess.addresses(target.getValue()));
                runPlan(target.getKey(), target.getValue());
            }
            assertEquals(0, serve.terminate(STOP), serve.output());
            assertTrue(serve.output().contains("dsload: every server stopped"), serve.output());
            assertNothingLeft(children, addresses);
            assertFalse(Files.exists(Path.of(serve.folder())), "the fresh folder is deleted: " + serve.folder());
        }
    }

    private static void runPlan(String target, Map<String, String> printed) throws Exception {
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
        PlanRuns.Result result = PlanRuns.run(plan, properties, PLAN, false);
        assertTrue(result.outcome().ok(), target + ": " + result.outcome().problem() + "\n" + result.console());
        LabelStats all = result.outcome().summary().total();
        assertTrue(all.requests() > 0, target + " had no requests");
        assertEquals(1.0, all.successRatio(), target + ": " + all.requests() + " requests, not all successful");
    }

    private static void assertNothingLeft(List<ProcessHandle> processes, List<String> addresses) throws Exception {
        assertFalse(processes.isEmpty());
        for (ProcessHandle p : processes) {
            assertTrue(Deadline.await(() -> !p.isAlive(), Duration.ofSeconds(30), Duration.ofMillis(100)),
                    "process " + p.pid() + " " + p.info().command().orElse("") + " outlived serve");
        }
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
            assertNothingLeft(children, addresses);
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
            assertEquals(0, first.terminate(STOP));
            assertEquals(0, second.terminate(STOP));
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

    private static Jedis jedis(String hostPort) {
        return new Jedis(hostPort.split(":")[0], Integer.parseInt(hostPort.split(":")[1]));
    }

    @Test
    void aTargetThatCannotStartSaysWhyInOneSentenceAndTheOthersAreStopped() throws Exception {
        try (ServeProcess serve = ServeProcess.withJavaOptions("-Ddsload.influxd=/nonexistent/influxd", "redis", "influxdb")) {
            assertFalse(serve.awaitServing(START), serve.output());
            assertEquals(1, serve.process().waitFor());
            assertTrue(serve.output().contains("dsload: influxdb could not start: " + InfluxDb.missingMessage()),
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
