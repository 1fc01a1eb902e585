package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.process.Ports;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import redis.clients.jedis.Jedis;

/** test-plans/redis-ycsb.jmx, headless, against a real redis-server. */
@Timeout(600)
class RedisYcsbPlanIT {
    private static EmbeddedRedis redis;

    @BeforeAll
    static void start() {
        // a second user who may read and nothing else, for the test of an error no retry cures
        redis = EmbeddedRedis.start("127.0.0.1", Ports.free(), List.of("--user", "reader", "on", ">reader-pw", "~*",
                "+@read", "+@connection"));
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    private static Map<String, Long> labels(List<JtlSample> samples) {
        return samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
    }

    private static String firstFailure(List<JtlSample> samples) {
        return samples.stream().filter(s -> !s.success()).findFirst()
                .map(s -> s.label() + " " + s.responseCode() + " " + s.responseMessage()).orElse("");
    }

    @ParameterizedTest(name = "workload {0}")
    @CsvSource({"a, READ UPDATE", "b, READ UPDATE", "c, READ", "d, READ INSERT", "e, SCAN INSERT",
        "f, READ READ-MODIFY-WRITE"})
    void eachCoreWorkloadLoadsItsRecordsThenRunsItsOperationsInYcsbsRedisLayout(String workload, String operations)
            throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
        }
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "workload", workload,
                "recordcount", "300", "operations", "1500", "threads", "4", "load_threads", "2", "in_flight", "1"),
                Duration.ofMinutes(3), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());

        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = labels(samples);
        assertTrue(samples.stream().allMatch(JtlSample::success), firstFailure(samples));
        assertEquals(300L, labels.get("LOAD"));
        Set<String> expected = Set.of(operations.split(" "));
        Map<String, Long> run = labels.entrySet().stream().filter(e -> !e.getKey().equals("LOAD"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertTrue(expected.containsAll(run.keySet()), "only the workload's operations: " + run);
        assertEquals(1500L, run.values().stream().mapToLong(Long::longValue).sum(), "the operation count: " + run);
        long inserts = run.getOrDefault("INSERT", 0L);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            assertEquals(300 + inserts, jedis.zcard("_indices"), "every record's key is in the scan index");
            assertEquals(300 + inserts + 1, jedis.dbSize(), "a hash per record, and the index");
            Map<String, String> first = jedis.hgetAll("user6284781860667377211");
            assertEquals(10, first.size(), "record 0, under YCSB's key, holds field0 ... field9: " + first.keySet());
            assertEquals(100, first.get("field7").length());
            assertEquals((double) "user6284781860667377211".hashCode(), jedis.zscore("_indices", "user6284781860667377211"),
                    "scored by the key's hash code, as YCSB's redis binding scores it");
        }
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("== YCSB ==\nworkload" + workload + ", 300 records of 10 fields x 100 chars"), text);
        assertTrue(text.contains("; store redis\n"), text);
        assertTrue(text.matches("(?s).*\\n\\[OVERALL]\\s+1500\\s.*"), text);
    }

    /**
     * A plan saved before the YCSB elements moved to org.dsload.ycsb, as redis-ycsb.jmx was then
     * (org.dsload.cassandra.YcsbWorkload and YcsbSampler with binding redis): it loads under the new
     * classes and runs.
     */
    @Test
    void aPlanSavedWithTheOldYcsbClassNamesLoadsAndRuns() throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
        }
        Path plan = Checkout.basedir().resolve("src/test/resources/org/dsload/ycsb/old-redis-ycsb.jmx");
        assertTrue(Files.readString(plan, StandardCharsets.UTF_8).contains(
                "testclass=\"org.dsload.cassandra.YcsbSampler\""), "the plan as it was saved");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRun run = new PlanRun(Checkout.jmeterHome(), plan).resultsRoot(Checkout.target().resolve("test-results"))
                .timeout(Duration.ofMinutes(3)).dashboard(false).jvmArgs(List.of("-Xms256m", "-Xmx512m"))
                .property("hosts", redis.address()).property("recordcount", "200").property("operations", "600")
                .property("threads", "2").property("load_threads", "2");
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
        assertTrue(outcome.ok(), outcome.problem() + "\n" + console.toString(StandardCharsets.UTF_8));

        List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
        Map<String, Long> labels = labels(samples);
        assertTrue(samples.stream().allMatch(JtlSample::success), firstFailure(samples));
        assertEquals(200L, labels.get("LOAD"));
        assertEquals(600L, labels.getOrDefault("READ", 0L) + labels.getOrDefault("UPDATE", 0L), labels.toString());
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            assertEquals(200, jedis.zcard("_indices"), "YCSB's redis layout");
        }
    }

    @Test
    void withOperationsInFlightTheServerRunsExactlyTheCommandsOfTheOperationsReported() throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
            jedis.configResetStat();
        }
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "workload", "a",
                "recordcount", "400", "operations", "3000", "threads", "2", "load_threads", "2", "in_flight", "4",
                // both threads start at once: one started later finds the operations taken and ends at once
                "rampup", "0"),
                Duration.ofMinutes(3), false);
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());

        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertTrue(samples.stream().allMatch(JtlSample::success), firstFailure(samples));
        assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "every sample carries its µs timing");
        Map<String, Long> operations = samples.stream().collect(Collectors.groupingBy(JtlSample::label,
                Collectors.summingLong(JtlSample::sampleCount)));
        assertEquals(400L, operations.get("LOAD"));
        assertEquals(3000L, operations.get("READ") + operations.get("UPDATE"), "the operation count: " + operations);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            String stats = jedis.info("commandstats");
            assertEquals(operations.get("READ"), calls(stats, "hgetall"), "a read each");
            assertEquals(400 + operations.get("UPDATE"), calls(stats, "hmset"), "a load's hash and an update each");
            assertEquals(400L, calls(stats, "zadd"), "a load's key in the index each");
            assertEquals(400L, jedis.zcard("_indices"));
            long connections = Long.parseLong(jedis.info("stats").lines()
                    .filter(l -> l.startsWith("total_connections_received:")).findFirst().orElseThrow().split(":")[1]
                    .trim());
            assertTrue(connections >= 2 * 2 * 4, "each thread of each phase kept 4 connections busy, one operation "
                    + "on each: " + connections + " connections received");
        }
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*\\n\\[OVERALL]\\s+3000\\s.*"), text);
    }

    // judges schedule keeping: run with no other test JVM beside it, as users run it; the others
    // judge what a run does and run side by side
    @org.junit.jupiter.api.Tag("alone")
    @Test
    void withItsDefaultsTwoThreadsKeepSixteenOperationsOutstandingAndTheServerRunsEachOne() throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
            jedis.configResetStat();
        }
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "duration", "3"),
                Duration.ofMinutes(3), false);
        PlanRuns.assertKeptSchedule(result);
        InFlightCounts load = InFlightCounts.of(result.outcome(), "LOAD");
        InFlightCounts reads = InFlightCounts.of(result.outcome(), "READ");
        InFlightCounts updates = InFlightCounts.of(result.outcome(), "UPDATE");
        assertEquals(1000, load.ok(), "the default 1,000 records: " + load);
        assertTrue(reads.rows() < reads.requests(), "operations in flight, rows of several: " + reads);
        Set<String> threads = PlanRuns.samples(result.outcome().jtl()).stream()
                .filter(x -> x.label().equals("READ")).map(JtlSample::threadName).collect(Collectors.toSet());
        assertEquals(2, threads.size(), "two threads: " + threads);
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            String stats = jedis.info("commandstats");
            reads.assertServerCounted(calls(stats, "hgetall"));
            load.plus(updates).assertServerCounted(calls(stats, "hmset"));
            assertEquals(1000L, calls(stats, "zadd"), "a load's key in the index each");
        }
    }

    @Test
    void aTargetPacesTheRunPhaseAndTimesEachOperationFromItsIntendedStart() throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
            jedis.configResetStat();
        }
        int target = 300;
        int seconds = 3;
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "recordcount", "200",
                "duration", "" + seconds, "target", "" + target, "rampup", "0"), Duration.ofMinutes(3), false);
        PlanRuns.assertRan(result.outcome(), result.console());
        InFlightCounts reads = InFlightCounts.of(result.outcome(), "READ");
        InFlightCounts updates = InFlightCounts.of(result.outcome(), "UPDATE");
        long operations = reads.requests() + updates.requests();
        // unpaced, two threads of 8 in flight make tens of thousands of operations in 3 s here
        assertTrue(operations >= target * seconds * 0.9 && operations <= target * (seconds + 1),
                seconds + " s at " + target + " operations/s: " + operations);
        var readLabel = result.outcome().summary().label("READ");
        assertEquals(readLabel.samples(), readLabel.scheduledSamples(), "every operation carries its intended start");
        assertEquals(target, result.outcome().summary().label("UPDATE").targetRate()
                + readLabel.targetRate(), target * 0.05, "the target shared by the operations");
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            reads.assertServerCounted(calls(jedis.info("commandstats"), "hgetall"));
        }
    }

    private static long calls(String commandstats, String command) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("cmdstat_" + command + ":calls=(\\d+)")
                .matcher(commandstats);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /**
     * The load thread group continues on a sampler error, so that a failed attempt with a retry left
     * goes on: the YCSB Operation itself stops the test at an insert failed with no retry left, one
     * at a time and in flight.
     */
    @ParameterizedTest(name = "in flight {0}, insertion retry limit {1}")
    @CsvSource({"1, 0", "4, 1"})
    void aLoadInsertFailedWithNoRetryLeftStopsTheTestBeforeTheRunPhase(String inFlight, int retryLimit)
            throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
            jedis.set("_indices", "not a sorted set"); // every insert's ZADD meets WRONGTYPE
        }
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "recordcount", "1000",
                "threads", "4", "load_threads", "2", "in_flight", inFlight, "duration", "60",
                "insertion_retry_limit", Integer.toString(retryLimit), "insertion_retry_interval", "0.1"),
                Duration.ofMinutes(2), false);
        assertFalse(result.outcome().ok(), "the run failed: " + result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = labels(samples);
        assertEquals(Set.of("LOAD"), labels.keySet(), "no run-phase sample: " + labels);
        assertEquals("WRONGTYPE", samples.get(0).responseCode());
        assertTrue(result.console().contains("the load phase failed at user"), result.console());
        assertTrue(result.console().contains("WRONGTYPE"), result.console());
        if (retryLimit == 0) {
            assertTrue(labels.get("LOAD") < 20, "the load stops at its first failure: " + labels);
        } else {
            assertTrue(samples.get(0).responseMessage().contains("(attempt 1 of 2: the insert is tried again in "),
                    "a failed attempt with a retry left did not stop the test: " + samples.get(0).responseMessage());
            assertTrue(result.console().contains(" (attempt 2 of 2): WRONGTYPE"), result.console());
            assertTrue(samples.stream().noneMatch(JtlSample::success), "every attempt failed");
        }
    }

    @Test
    void anOperationThatFailedEveryTimeKeepsItsRowInTheYcsbTableBesideTheMedian() throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
        }
        // the reader may not write: every UPDATE fails, and the run goes on as the field says
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "redis_user", "reader",
                "redis_password", "reader-pw", "workload", "a", "load_threads", "0", "threads", "2", "operations", "400",
                "in_flight", "1", "stop_on_unrecoverable", "false"), Duration.ofMinutes(2), false);
        Map<String, Long> labels = labels(PlanRuns.samples(result.outcome().jtl()));
        long updates = labels.getOrDefault("UPDATE", 0L);
        assertTrue(updates > 0, labels.toString());
        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*\\nOperation\\s+Operations\\s+TPS\\s+Avg\\s+Min\\s+Max\\s+P50\\s+P95\\s+P99\\s+Errors\\n.*"),
                text);
        String[] row = text.lines().filter(l -> l.startsWith("UPDATE ")).findFirst().orElse("").trim().split("\\s+");
        assertEquals(List.of("UPDATE", Long.toString(updates), Long.toString(updates)),
                List.of(row[0], row.length > 1 ? row[1] : "", row[row.length - 1]),
                "UPDATE keeps its row, every one of its operations an error:\n" + text);
    }

    @ParameterizedTest(name = "in flight {0}")
    @CsvSource({"1", "4"})
    void aUserWithoutWritePermissionStopsTheRunAtItsFirstRefusal(String inFlight) throws Exception {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.flushAll();
        }
        PlanRuns.Result result = PlanRuns.run("redis-ycsb.jmx", Map.of("hosts", redis.address(), "redis_user", "reader",
                "redis_password", "reader-pw", "workload", "a", "load_threads", "0", "threads", "4", "duration", "60",
                "in_flight", inFlight), Duration.ofMinutes(2), false);
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertTrue(samples.stream().anyMatch(s -> s.responseCode().equals("NOPERM")), labels(samples).toString());
        assertTrue(samples.size() < 200, "stopped at the first NOPERM, not after 60 s: " + samples.size());
        assertTrue(result.console().contains("NOPERM"), result.console());
        assertTrue(result.console().contains("No retry can cure this error, so the test stops"), result.console());
        assertFalse(result.console().contains("reader-pw"), "the password never reaches the console");
    }
}
