package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.dsload.cli.ExitCodes;
import org.dsload.report.JtlSample;
import org.dsload.targets.EmbeddedZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/** test-plans/zk-latencies.jmx and zk-scheduler-model.jmx, headless, against a real ZooKeeper server. */
@Timeout(300)
class ZooKeeperPlansIT {
    private static EmbeddedZooKeeper zk;

    @BeforeAll
    static void start() {
        zk = EmbeddedZooKeeper.single();
    }

    @AfterAll
    static void stop() {
        zk.close();
    }

    @Test
    void zkLatenciesRunsTheSevenPhasesInOrderAndPrintsTheirRates() throws Exception {
        Path jtl = zkLatencies("1");
        Map<String, Long> rows = rows(jtl);
        for (String phase : List.of("Create", "Set", "Get", "Delete", "Create Ephemeral", "Watch", "Delete Ephemeral")) {
            assertEquals(600L, rows.get(phase), phase + ": a results row per call");
        }
    }

    @Test
    void zkLatenciesInFlightKeepsEachPhasesCountWithManyCallsOutstanding() throws Exception {
        Map<String, Long> rows = rows(zkLatencies("8"));
        for (String phase : List.of("Create", "Get", "Delete Ephemeral")) {
            assertTrue(rows.get(phase) < 600, phase + ": rows stand for several calls answered together, got "
                    + rows.get(phase) + " rows");
        }
        assertEquals(80L, rows.get("Watch notification"), "watch notifications stay one at a time");
    }

    /** Rows of the results file per label, as written (the reader gives a sample per request). */
    private static Map<String, Long> rows(Path jtl) throws Exception {
        try (var lines = Files.lines(jtl, StandardCharsets.UTF_8)) {
            // timeStamp and elapsed are numbers, so the label is the third field of each row
            return lines.skip(1).map(line -> line.split(",", 4)[2])
                    .collect(Collectors.groupingBy(label -> label, Collectors.counting()));
        }
    }

    /**
     * Runs zk-latencies.jmx with 2 clients of 300 znodes and 20 watches each and checks what holds
     * whatever the calls in flight: every phase whole, in order, every call OK, the summary, no znode left.
     */
    private static Path zkLatencies(String inFlight) throws Exception {
        PlanRuns.Result result = PlanRuns.run("zk-latencies.jmx", Map.of("hosts", zk.connectString(), "znodes", "300",
                "clients", "2", "watches", "20", "in_flight", inFlight), Duration.ofMinutes(3));
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds: " + samples.stream()
                .filter(s -> !s.success()).limit(3).map(s -> s.label() + " " + s.responseMessage()).toList());
        assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "every sample carries its µs timing");

        // Rows carry millisecond start times and reach the file in per-thread batches, so two clients' rows of
        // the same millisecond may come in either order: a phase may start in the millisecond the previous one
        // ended, never before it.
        List<String> phases = List.of("Create", "Set", "Get", "Delete", "Create Ephemeral", "Watch",
                "Delete Ephemeral", "Watch notification");
        Map<String, LongSummaryStatistics> starts = samples.stream().collect(Collectors.groupingBy(JtlSample::label,
                Collectors.summarizingLong(JtlSample::start)));
        assertEquals(Set.copyOf(phases), starts.keySet(), "every phase and no other label");
        for (int i = 1; i < phases.size(); i++) {
            LongSummaryStatistics before = starts.get(phases.get(i - 1));
            LongSummaryStatistics after = starts.get(phases.get(i));
            assertTrue(before.getMax() <= after.getMin(), phases.get(i) + " starts at " + after.getMin()
                    + " ms, before the last " + phases.get(i - 1) + " at " + before.getMax()
                    + " ms: phases follow each other, every client in the same phase");
        }
        Map<String, Long> calls = samples.stream().collect(Collectors.groupingBy(JtlSample::label,
                Collectors.summingLong(JtlSample::sampleCount)));
        for (String phase : List.of("Create", "Set", "Get", "Delete", "Create Ephemeral", "Watch", "Delete Ephemeral")) {
            assertEquals(600L, calls.get(phase), phase + ": 300 znodes for each of 2 clients");
        }
        assertEquals(80L, calls.get("Watch notification"), "20 creates and 20 deletes for each of 2 clients");

        Path dir = result.outcome().dir();
        String summary = Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.contains("== zk-latencies: operations per second (S4) =="), summary);
        assertTrue(summary.matches("(?s).*created\\s+600 permanent znodes in\\s+\\d+ ms .*/sec\\).*"), summary);
        assertTrue(summary.matches("(?s).*deleted\\s+600 ephemeral znodes in.*"), summary);
        assertTrue(summary.contains("== Watch notification =="), "watch latency has its own block with percentiles");
        assertTrue(summary.contains("== ZooKeeper server gauges"), summary);
        assertTrue(summary.contains(zk.node(0).address()), summary);
        List<String> gauges = Files.readAllLines(dir.resolve("zk-mntr.tsv"), StandardCharsets.UTF_8);
        assertTrue(gauges.size() >= 2, "a header and at least one poll: " + gauges);
        assertTrue(gauges.get(1).contains("\tstandalone\t"), gauges.get(1));
        assertTrue(result.console().contains("test root /zk-latencies/master: removed "), result.console());
        try (CuratorFramework plain = plain()) {
            assertNull(plain.checkExists().forPath("/zk-latencies/master"), "the plan leaves no znode behind");
        }
        return result.outcome().jtl();
    }

    @Test
    void zkLatenciesRefusesARootHoldingZnodesItDidNotCreateAndDeletesNone() throws Exception {
        try (CuratorFramework plain = plain()) {
            plain.create().creatingParentsIfNeeded().forPath("/zkl-used/master/c1/0", "precious".getBytes(
                    StandardCharsets.UTF_8));
            PlanRuns.Result result = PlanRuns.run("zk-latencies.jmx", Map.of("hosts", zk.connectString(), "znodes", "5",
                    "watches", "2", "zk_root", "/zkl-used"), Duration.ofMinutes(3), false);
            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            assertEquals(1, samples.size(), "the test stops at its first sample: " + samples);
            assertEquals("CONFIG", samples.get(0).responseCode());
            assertTrue(samples.get(0).responseMessage().contains("/zkl-used/master, which already holds 2 znodes"),
                    samples.get(0).responseMessage());
            assertEquals("precious", new String(plain.getData().forPath("/zkl-used/master/c1/0"), StandardCharsets.UTF_8),
                    "the znode is still there");
        }
    }

    @Test
    void zkLatenciesRatesCountOnlyCallsAnsweredOkAndErrorsGroupByShape() throws Exception {
        // The root belongs to another digest user (world may read it): the plan's user gets NOAUTH on every write.
        try (CuratorFramework owner = CuratorFrameworkFactory.builder().connectString(zk.connectString())
                .retryPolicy(new RetryNTimes(2, 100)).authorization("digest", "owner:right".getBytes(
                        StandardCharsets.UTF_8)).build()) {
            owner.start();
            assertTrue(owner.blockUntilConnected(10, TimeUnit.SECONDS));
            List<ACL> acl = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
            acl.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
            owner.create().creatingParentsIfNeeded().withACL(acl, false).forPath("/zkl-acl/master");
        }
        PlanRuns.Result stopped = PlanRuns.run("zk-latencies.jmx", Map.of("hosts", zk.connectString(), "znodes", "40",
                "watches", "2", "zk_root", "/zkl-acl", "zk_user", "owner", "zk_password", "wrong",
                "zk_acl", "creator"), Duration.ofMinutes(3), false);
        assertTrue(stopped.console().contains("NOAUTH") && stopped.console().contains("No retry can cure this error"),
                "a denied write stops the test at once by default: " + stopped.console());
        assertTrue(PlanRuns.samples(stopped.outcome().jtl()).size() < 10, "the test stopped at its first denied write");
        PlanRuns.Result result = PlanRuns.run("zk-latencies.jmx", Map.of("hosts", zk.connectString(), "znodes", "40",
                "watches", "2", "zk_root", "/zkl-acl", "zk_user", "owner", "zk_password", "wrong",
                "zk_acl", "creator", "stop_on_unrecoverable", "false"), Duration.ofMinutes(3), false);
        String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.matches("(?s).*created\\s+0 permanent znodes: no call answered OK \\(40 calls: NOAUTH 40\\).*"),
                summary);
        assertTrue(summary.matches("(?s).*watched\\s+0\\s+znodes: no call answered OK \\(40 calls: NONODE 40\\).*"),
                "Exists on an absent node set no watch: " + summary);
        String set = summary.substring(summary.indexOf("== Set =="), summary.indexOf("== Get =="));
        assertTrue(set.contains("Error Set:\nKeeperErrorCode = NoNode for /zkl-acl/master/c1/* (40)\n"),
                "one line for the 40 paths: " + set);
    }

    private static CuratorFramework plain() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryNTimes(2, 100));
        client.start();
        assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
        return client;
    }

    /**
     * The plan's own search of its capacity in domains (Capacity Steps, by find-max's rule), on a limit
     * the server counts exactly: every executor that has worked holds one ephemeral node (3 per domain;
     * an executor whose domain is left out idles with its session open), so at most 15 ephemerals breaks
     * at the first step above 5 domains and at every step after it. From 2, up to 8, to within 1: 2 and
     * 4 kept, 8 broken, then 6 and 5 broken on the way down; the answer is 4, the lowest count broken 5. The domains follow the
     * search down: the executors of domain 7 stop firing jobs before those of domain 5, and those before
     * domain 0's.
     */
    @Test
    void schedulerModelSearchesItsCapacityInDomainsUpAndDown() throws Exception {
        PlanRuns.Result result = PlanRuns.run("zk-scheduler-model.jmx", Map.ofEntries(Map.entry("hosts", zk.connectString()),
                Map.entry("start_domains", "2"), Map.entry("step", "1"), Map.entry("max_domains", "8"),
                Map.entry("step_seconds", "5"), Map.entry("max_p99_ms", "60000"), Map.entry("max_error_pct", "100"),
                Map.entry("max_gauges", "zk_ephemerals_count=15"), Map.entry("jobs", "90"), Map.entry("job_millis", "500"),
                Map.entry("in_flight", "10")), Duration.ofMinutes(3));
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        Path dir = result.outcome().dir();
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("find-max.json").toFile());
        List<Integer> counts = new ArrayList<>();
        json.get("steps").forEach(s -> counts.add(s.get("rate").asInt()));
        assertEquals(List.of(2, 4, 8, 6, 5), counts, json.toString());
        assertEquals(4, json.get("answer").get("rate").asInt(), json.toString());
        assertEquals("domains", json.get("answer").get("unit").asText());
        assertTrue(json.get("answer").get("broke").asText().contains("zk_ephemerals_count"), json.toString());
        assertTrue(Files.exists(dir.resolve("find-max.png")), "find-max's chart");

        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertEquals(24, samples.stream().filter(s -> s.label().equals("register executor")).count(),
                "8 domains x 3 executors, each registered once");
        long last7 = lastJobStart(samples, 7);
        long last5 = lastJobStart(samples, 5);
        long last0 = lastJobStart(samples, 0);
        assertTrue(last7 > 0, "domain 7 worked at the step of 8 domains");
        assertTrue(last7 < last5 && last5 < last0, "domains left out stop working, the highest first: domain 7's last job at "
                + last7 + ", domain 5's at " + last5 + ", domain 0's at " + last0);

        String capacity = Files.readString(dir.resolve("capacity.txt"), StandardCharsets.UTF_8);
        assertTrue(capacity.contains("step 3: 8 domains"), capacity);
        assertTrue(capacity.contains("capacity reached: 4 domains (step 5 with 5 domains failed"), capacity);
        assertTrue(result.console().contains("dsload capacity: "), result.console());
        String summary = Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.contains("== Capacity steps =="), summary);
        try (CuratorFramework plain = plain()) {
            assertNull(plain.checkExists().forPath("/scheduler/master"), "the plan removes its domains at the end");
        }
    }

    /** When the last "job start" of an executor of {@code domain} started (thread t is of domain (t - 1) / 3); 0 if none. */
    private static long lastJobStart(List<JtlSample> samples, int domain) {
        return samples.stream().filter(s -> s.label().equals("job start"))
                .filter(s -> (Integer.parseInt(s.threadName().replaceFirst(".*-", "")) - 1) / 3 == domain)
                .mapToLong(JtlSample::start).max().orElse(0);
    }

    @Test
    void schedulerModelInFlightRegistersEveryJobOfEachExecutorWithCallsOutstanding() throws Exception {
        // the step must outlast the executors' sessions and their creates and gets: on a slow machine the six
        // sessions took 5 s to connect and the creates 2.3 s more, and a step of 8 s ended before one executor's
        // last 5 creates and most gets were sent
        PlanRuns.Result result = PlanRuns.run("zk-scheduler-model.jmx", Map.of("hosts", zk.connectString(),
                "start_domains", "2", "step", "2", "max_domains", "2", "step_seconds", "20", "max_p99_ms", "5000",
                "in_flight", "5"), Duration.ofMinutes(3));
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> rows = rows(result.outcome().jtl());
        for (String label : List.of("create job", "watch job")) {
            List<JtlSample> calls = samples.stream().filter(s -> s.label().equals(label)).toList();
            assertEquals(6 * 35, calls.size(), label + ": 2 domains x 3 executors x 35 jobs, each sent once");
            assertTrue(rows.get(label) < 6 * 35, label + ": rows of several calls answered together, got "
                    + rows.get(label));
            assertTrue(calls.stream().allMatch(JtlSample::success), label + ": " + calls.stream()
                    .filter(s -> !s.success()).limit(3).map(JtlSample::responseMessage).toList());
        }
        long jobStarts = samples.stream().filter(s -> s.label().equals("job start")).count();
        assertEquals(jobStarts, rows.getOrDefault("job start", 0L), "the job runs stay one call per row");
        try (CuratorFramework plain = plain()) {
            assertNull(plain.checkExists().forPath("/scheduler/master"), "the plan removes its domains at the end");
        }
    }

    /**
     * The capacity of zk-scheduler-model.jmx in domains by find-max's search, against one embedded
     * ZooKeeper: each step a run of -Jdomains domains for -Jduration s. The limit that breaks is one the
     * server counts exactly: every executor holds one ephemeral node (3 per domain), so at most 15
     * ephemerals means at most 5 domains, whatever the machine's speed. From 3: 3 kept, 6 broken, 5 kept,
     * and 5 kept again in the repeat of the answer's step.
     */
    @Test
    void theCapacityInDomainsIsTheHighestCountWithinTheLimits() throws Exception {
        // the plan's own stop condition is left wide open: the search's limits judge the steps. With 90 jobs a
        // domain each executor runs its jobs back to back (the timer's range is 2 x 180000 / 90 - 4000 = 0 ms), and a
        // job runs 2 s between its calls. A step's measured window is its step time less the delay before the
        // executors' first requests, and it must hold more than one job's run: steps of 4 s and 6 s judged 1.1 s and
        // 1.6 s, and no request, when that delay was 2.9 s and 4.4 s on a busy machine; 9 s allow up to 6.9 s
        FindMaxIT.FindMax run = FindMaxIT.findMax("zk-scheduler-model.jmx", List.of("-Jhosts=" + zk.connectString(),
                "-Jmax_p99_ms=60000", "-Jmax_error_pct=100", "-Jjobs=90", "--rate-property=domains", "--unit=domains", "--start=3",
                "--step-seconds=9", "--settle-seconds=2", "--max-steps=4", "--max-error-rate=50%",
                "--max-gauge=zk_ephemerals_count=15"));
        JsonNode json = run.json();
        assertEquals(ExitCodes.OK, run.exit(), run.output());
        JsonNode answer = json.get("answer");
        assertEquals(5, answer.get("rate").asInt(), json.toString());
        assertEquals("domains", answer.get("unit").asText());
        assertTrue(answer.get("broke").asText().contains("zk_ephemerals_count"), answer.toString());
        FindMaxIT.assertSteps(json, 5);
        List<Integer> rates = new java.util.ArrayList<>();
        json.get("steps").forEach(s -> rates.add(s.get("rate").asInt()));
        assertEquals(List.of(3, 6, 5, 5), rates,
                "doubled from 3, then bisected between 3 kept and 6 broken, then 5 run again before it is the answer");
        for (JsonNode step : json.get("steps")) {
            // each step ran its own count of domains: 3 ephemeral executors each
            assertEquals(3 * step.get("rate").asInt(), step.get("gauges").get("zk_ephemerals_count").asInt(), step.toString());
        }
        String text = Files.readString(run.dir().resolve("find-max.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("Answer: domains=5 (5 domains)"), text);
        assertTrue(text.contains("It kept them in each of its 2 steps at 5"), text);
        assertEquals(2, answer.get("stepsKeptAtRate").asInt(), answer.toString());
        System.out.println("dsload: find-max of zk-scheduler-model.jmx in domains:\n" + text);
    }
}
