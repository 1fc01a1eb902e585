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
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.dsload.report.JtlSample;
import org.dsload.report.SlaveOfSample;
import org.dsload.report.SlaveRoster;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.testing.SharedCassandra;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.datastax.oss.driver.api.core.CqlSession;

/** test-plans/cassandra-ycsb.jmx, headless, against a real Cassandra node. */
@Timeout(300)
@ExtendWith(SharedCassandra.class)
class CassandraYcsbPlanIT {

    @Test
    void loadsTheRecordsThenRunsTheOperationCountWithASummaryPerOperation() throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "keyspace", "ycsb_plan", "recordcount", "500", "operations", "2000", "threads", "8",
                "load_threads", "4", "in_flight", "1", "workload", "b"), Duration.ofMinutes(3));
        assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());

        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
        assertEquals(1L, labels.get("SCHEMA"));
        assertEquals(500L, labels.get("LOAD"));
        assertEquals(2000L, labels.getOrDefault("READ", 0L) + labels.getOrDefault("UPDATE", 0L),
                "the run ends at the operation count: " + labels);
        assertTrue(labels.get("READ") > 1800, "workload b reads 95 %: " + labels);
        assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds");
        assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "every sample carries its µs timing");
        try (CqlSession s = cassandra.session("ycsb_plan")) {
            assertEquals(500, s.execute("SELECT count(*) FROM usertable").one().getLong(0));
        }

        String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("== READ =="), text);
        assertTrue(text.contains("== YCSB ==\nworkloadb, 500 records of 10 fields x 100 chars, zipfian keys, "
                + "read 0.95 / update 0.05; consistency read QUORUM, write QUORUM"), text);
        Map<String, String> rows = text.lines().filter(l -> l.matches("^(READ|UPDATE|\\[OVERALL\\]|LOAD) .*"))
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf(' ')), Function.identity(), (a, b) -> a));
        assertTrue(rows.get("READ").matches("READ\\s+" + labels.get("READ") + "\\s.*\\s0$"), rows.get("READ"));
        assertTrue(rows.get("[OVERALL]").matches("\\[OVERALL]\\s+2000\\s.*"), rows.get("[OVERALL]"));
        assertTrue(rows.get("LOAD").matches("LOAD\\s+500\\s.*"), rows.get("LOAD"));
    }

    /**
     * A plan saved before the YCSB elements moved to org.dsload.ycsb, as cassandra-ycsb.jmx was
     * then: org.dsload.cassandra.YcsbWorkload with the keyspace and consistency fields,
     * org.dsload.cassandra.YcsbSampler, org.dsload.cassandra.CassandraSession. It loads under the new
     * classes and runs with the keyspace and consistency it names.
     */
    @Test
    void aPlanSavedWithTheOldYcsbClassNamesRunsWithItsOwnKeyspaceAndConsistency() throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        Path plan = Checkout.basedir().resolve("src/test/resources/org/dsload/ycsb/old-cassandra-ycsb.jmx");
        String saved = Files.readString(plan, StandardCharsets.UTF_8);
        assertTrue(saved.contains("testclass=\"org.dsload.cassandra.YcsbWorkload\"")
                && saved.contains("testclass=\"org.dsload.cassandra.YcsbSampler\"")
                && saved.contains("<stringProp name=\"readConsistency\">"), "the plan as it was saved");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRun run = new PlanRun(Checkout.jmeterHome(), plan).resultsRoot(Checkout.target().resolve("test-results"))
                .timeout(Duration.ofMinutes(3)).dashboard(false).jvmArgs(List.of("-Xms256m", "-Xmx512m"))
                .property("hosts", cassandra.address()).property("keyspace", "ycsb_old_plan")
                .property("consistency", "ONE").property("recordcount", "200").property("operations", "400")
                .property("threads", "2").property("load_threads", "2").property("in_flight", "1");
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
        assertTrue(outcome.ok(), outcome.problem() + "\n" + console.toString(StandardCharsets.UTF_8));

        List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
        Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
        assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds: " + labels);
        assertEquals(1L, labels.get("SCHEMA"));
        assertEquals(200L, labels.get("LOAD"));
        assertEquals(400L, labels.getOrDefault("READ", 0L) + labels.getOrDefault("UPDATE", 0L), labels.toString());
        try (CqlSession s = cassandra.session("ycsb_old_plan")) {
            assertEquals(200, s.execute("SELECT count(*) FROM usertable").one().getLong(0),
                    "the keyspace the old workload element names");
        }
        String text = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("; consistency read ONE, write ONE\n"), "its consistency fields hold: " + text);
    }

    @Test
    void withOperationsInFlightOnTwoLocalSlavesEveryOperationReachesTheMasterAndTheCoordinatorCountsEach()
            throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("cassandra-ycsb.jmx"))
                .resultsRoot(Checkout.target().resolve("test-results")).timeout(Duration.ofMinutes(5))
                .jvmArgs(List.of("-Xms256m", "-Xmx512m")).dashboard(false).slaveHeap("256m")
                .remoteDir(Checkout.target().resolve("rmi")).localSlaves(2)
                .property("hosts", cassandra.address()).property("keyspace", "ycsb_slaves")
                .property("recordcount", "400").property("operations", "1500").property("threads", "2")
                .property("load_threads", "2").property("in_flight", "8").property("consistency", "ONE")
                .property("request_timeout", "20000");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
        assertTrue(outcome.ok(), outcome.problem() + "\n" + console.toString(StandardCharsets.UTF_8));

        List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
        Map<String, Long> requests = samples.stream().collect(Collectors.groupingBy(JtlSample::label,
                Collectors.summingLong(JtlSample::sampleCount)));
        assertEquals(800L, requests.get("LOAD"), "each slave loads the 400 records: " + requests);
        assertEquals(3000L, requests.get("READ") + requests.get("UPDATE"), "each slave runs its 1500 operations");
        InFlightCounts reads = InFlightCounts.of(outcome, "READ");
        assertTrue(reads.rows() < reads.requests(), "rows stand for several operations: " + reads);
        assertTrue(samples.stream().allMatch(JtlSample::success), "every operation succeeds");
        List<String> slaves = SlaveRoster.read(outcome.dir()).orElseThrow().in(SlaveRoster.State.USED).stream()
                .map(SlaveRoster.Entry::address).toList();
        SlaveOfSample slaveOf = new SlaveOfSample(slaves);
        Set<String> engines = samples.stream().filter(s -> s.label().equals("READ"))
                .map(s -> String.valueOf(slaveOf.of(s.threadName()))).collect(Collectors.toSet());
        assertEquals(Set.copyOf(slaves), engines, "both slaves sent operations");

        String summary = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        theCoordinatorRanExactlyWhatWasReported(summary);
        assertTrue(summary.contains("[OVERALL]"), summary);
    }

    private static void theCoordinatorRanExactlyWhatWasReported(String summary) {
        for (String kind : List.of("reads", "writes")) {
            Matcher m = Pattern.compile("Cross-check \\[dsload reported, server counted\\] (\\d+), (\\d+) \\((match|differ[^)]*)\\) "
                    + kind).matcher(summary);
            assertTrue(m.find(), kind + " cross-check in\n" + summary);
            assertEquals("match", m.group(3), "the coordinator ran exactly the " + kind + " reported: " + m.group());
        }
    }

    // judges schedule keeping: run with no other test JVM beside it, as users run it; the others
    // judge what a run does and run side by side
    @org.junit.jupiter.api.Tag("alone")
    @Test
    void withItsDefaultsTwoThreadsKeepS5sFiftyOperationsOutstandingAndTheCoordinatorCountsEach() throws Exception {
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", SharedCassandra.node().address(),
                "duration", "3"), Duration.ofMinutes(3), false);
        PlanRuns.assertKeptSchedule(result);
        InFlightCounts reads = InFlightCounts.of(result.outcome(), "READ");
        assertTrue(reads.rows() < reads.requests(), "operations in flight, rows of several: " + reads);
        Set<String> threads = PlanRuns.samples(result.outcome().jtl()).stream()
                .filter(x -> x.label().equals("READ")).map(JtlSample::threadName).collect(Collectors.toSet());
        assertEquals(2, threads.size(), "two threads: " + threads);
        theCoordinatorRanExactlyWhatWasReported(Files.readString(result.outcome().dir().resolve("summary.txt"),
                StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownWorkloadStopsTheRunAtOnceNamingTheField() throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "workload", "g", "duration", "120"), Duration.ofMinutes(2));
        assertTrue(result.console().contains("dsload: dsload YCSB Workload 'YCSB workload': field 'Workload' must be "
                + "one of a, b, c, d, e, f"), result.console());
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        assertFalse(samples.isEmpty());
        assertEquals("CONFIG", samples.get(0).responseCode());
        assertTrue(samples.size() < 10, "the test stops at its first sample: " + samples.size());
    }

    @Test
    void whenTheLoadFailsTheRunPhaseDoesNotStart() throws Exception {
        EmbeddedCassandra cassandra = SharedCassandra.node();
        // nothing is created and the keyspace does not exist: every insert fails
        PlanRuns.Result result = PlanRuns.run("cassandra-ycsb.jmx", Map.of("hosts", cassandra.address(),
                "keyspace", "never_made", "create_schema", "false", "stop_on_unrecoverable", "false",
                "threads", "8", "load_threads", "4", "in_flight", "1", "duration", "60"), Duration.ofMinutes(2), false);
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label, Collectors.counting()));
        assertEquals(List.of("LOAD"), List.copyOf(labels.keySet()), "no run-phase sample: " + labels);
        assertTrue(labels.get("LOAD") < 20, "the load stops at its first failure: " + labels);
        assertEquals("InvalidQueryException", samples.get(0).responseCode(), samples.get(0).responseMessage());
        assertTrue(result.console().contains("the load phase failed at user"), result.console());
        assertTrue(result.console().contains("does not exist"), result.console());
    }
}
