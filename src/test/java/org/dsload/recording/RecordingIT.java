package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.dsload.core.format.RunProperties;
import org.dsload.plans.PlanRuns;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.RecordingFormat;
import org.dsload.report.Summary;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two recording modes through the runner, as a user runs a plan, against a real redis-server
 * whose own counters say how many requests there were: rows written by dsload's writer (and what a
 * stopped JMeter keeps), histograms mode in one engine, and histograms mode across local slaves.
 */
@Timeout(600)
class RecordingIT {
    private static final String GET = "GET profile";

    private record Run(PlanRunner.Outcome outcome, String console) {
    }

    /**
     * GETs a reader makes where a test judges that each GET is recorded and counted, not how many there
     * are: 4,000 for a run's 4 readers, where the seconds of its duration at full speed made 30,000 to
     * 70,000 with both cores busy.
     */
    private static final String COUNTED_LOOPS = "1000";

    private static PlanRun plan(EmbeddedRedis redis, String id, int seconds) {
        return new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("test-results")).runId(id + "-" + System.currentTimeMillis())
                .timeout(Duration.ofMinutes(4)).jvmArgs(List.of("-Xms256m", "-Xmx512m"))
                .property("hosts", redis.address()).property("profiles", "500").property("threads", "4")
                .property("rampup", "0").property("duration", Integer.toString(seconds));
    }

    private static Run run(PlanRun plan) throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(plan);
        return new Run(outcome, console.toString(StandardCharsets.UTF_8));
    }

    private static long rowRequests(Path jtl, String label) throws IOException {
        return PlanRuns.samples(jtl).stream().filter(s -> s.label().equals(label)).mapToLong(JtlSample::sampleCount)
                .sum();
    }

    @Test
    void rowsModeWritesEveryRequestWithDsloadsWriterAndMakesTheDashboardAfterTheRun() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Run run = run(plan(redis, "rows", 4).property("load_threads", "1").property("loops", COUNTED_LOOPS));
            assertTrue(run.outcome().ok(), run.outcome().problem() + "\n" + run.console());
            Path dir = run.outcome().dir();
            assertEquals(RedisCalls.of(redis, "GET"), rowRequests(run.outcome().jtl(), GET), "a row per GET");
            assertTrue(Files.readString(dir.resolve("jmeter.log")).contains("dsload: results into"),
                    "dsload's writer wrote the results file");
            assertTrue(Files.isRegularFile(dir.resolve("dashboard/index.html")), "the dashboard, made after the run");
            try (Stream<Path> left = Files.list(PlanRuns.plan("ekv-profile-get.jmx").getParent())) {
                assertEquals(List.of(), left.filter(p -> p.getFileName().toString().contains(".dsload-")).toList(),
                        "the plan's copy went with the run");
            }
        }
    }

    @Test
    // judges what a kill -9 loses against a second of rows: beside three other test JVMs the results writer once
    // fell further behind than that (279 rows of 3,900 answered GETs), so with no other test JVM beside it
    @Tag("alone")
    void ctrlCLosesNoRowAndAKilledJMeterAtMostItsLastSecond() throws Exception {
        for (String signal : List.of("INT", "KILL")) {
            try (EmbeddedRedis redis = EmbeddedRedis.start()) {
                AtomicLong answeredBefore = new AtomicLong(-1);
                AtomicLong answeredInTheLastSecond = new AtomicLong(-1);
                Thread stopper = wellIntoTheGets(redis, answeredBefore, answeredInTheLastSecond, "ApacheJMeter", signal);
                Run run = run(plan(redis, "stopped-" + signal, 60).property("load_threads", "1").dashboard(false));
                stopper.join();
                assertTrue(answeredBefore.get() > 0, "JMeter was stopped while it was reading");
                long rows = rowRequests(run.outcome().jtl(), GET);
                if (signal.equals("INT")) {
                    assertTrue(rows >= answeredBefore.get(), "Ctrl-C: every GET answered before it has its row: "
                            + rows + " rows, " + answeredBefore.get() + " answered");
                } else {
                    // a second of rows: the busiest second written, or the GETs the server answered in the
                    // second before the kill when the run was younger or faster than any second written
                    long lastSecond = Math.max(maxPerSecond(run.outcome().jtl()), answeredInTheLastSecond.get());
                    assertTrue(rows >= answeredBefore.get() - lastSecond, "kill -9: at most a second of rows lost: "
                            + rows + " rows, " + answeredBefore.get() + " answered, " + lastSecond + " per second");
                }
                assertTrue(rows <= RedisCalls.of(redis, "GET"));
            }
        }
    }

    @Test
    void histogramsModeRecordsEveryRequestIntoTheEnginesLogsAndNoDashboard() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Run run = run(plan(redis, "histograms", 4).property("load_threads", "1").property("loops", COUNTED_LOOPS)
                    .property(RunProperties.RECORD, "histograms"));
            assertTrue(run.outcome().ok(), run.outcome().problem() + "\n" + run.console());
            Path dir = run.outcome().dir();
            Summary summary = run.outcome().summary();
            LabelStats get = summary.label(GET);
            assertEquals(RedisCalls.of(redis, "GET"), get.requests(), "the logs count every GET the server answered");
            assertEquals(RedisCalls.of(redis, "SET"), summary.label("SET profile").requests());
            assertFalse(get.latencies().exact());
            long[] master = summary.engineRequests().get("master");
            assertEquals(master[0], master[1], "the results file's aggregate rows count the requests the logs count");
            Path engine = dir.resolve(RecordingFormat.FOLDER).resolve("master");
            assertTrue(Files.isRegularFile(engine.resolve("GET%20profile" + RecordingFormat.RAW_SUFFIX)));
            assertFalse(Files.exists(dir.resolve("dashboard")), "no dashboard counting rows as requests");
            assertTrue(Files.isRegularFile(dir.resolve("chart-latency.png")));
            String text = Files.readString(dir.resolve("summary.txt"));
            assertTrue(text.contains("== Recording ==") && text.contains("HdrHistogram with 3 significant digits"), text);
            long rows = Files.readAllLines(run.outcome().jtl()).size() - 1;
            assertTrue(rows < 30, "one row per label and second, not per request: " + rows);
        }
    }

    @Test
    void twoLocalSlavesRecordOnTheirOwnAndALostOneKeepsWhatItRecorded() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            AtomicLong answeredBefore = new AtomicLong(-1);
            Thread killer = wellIntoTheGets(redis, answeredBefore, "java.rmi.server.hostname=127.0.0.2", "KILL");
            // readers that pause 1 ms between GETs: what is judged is what the lost slave kept, not how much it read
            PlanRun plan = plan(redis, "histograms-slaves", 10).localSlaves(2).slaveHeap("256m")
                    .remoteDir(Checkout.target().resolve("rmi")).property("load_threads", "1").property("think_ms", "1")
                    .property(RunProperties.RECORD, "histograms");
            Run run = run(plan);
            killer.join();
            assertEquals(org.dsload.run.Ending.LOAD_INCOMPLETE, run.outcome().ending(), run.outcome().problem() + "\n"
                    + run.console());
            assertTrue(run.outcome().problem().contains("\n  slave 127.0.0.2:"), run.outcome().problem());
            assertTrue(answeredBefore.get() > 0, "a slave was killed while it was reading");
            Summary summary = run.outcome().summary();
            assertEquals(2, summary.recordings().engines().size(), "both slaves' folders are read");
            long recorded = summary.label(GET).requests();
            long served = RedisCalls.of(redis, "GET");
            long perSecond = Math.max(1, served / 10);
            assertTrue(recorded <= served && recorded >= served - 2 * perSecond, "the lost slave keeps what it recorded "
                    + "but its last second: " + recorded + " recorded, " + served + " served");
            String text = Files.readString(run.outcome().dir().resolve("summary.txt"));
            assertTrue(text.contains("== Slaves ==") && text.contains("from each slave's interval logs"), text);
            assertTrue(text.contains("slave-127.0.0.2_") && text.contains("intervals missing from"), text);
        }
    }

    @Test
    void slavesWithoutARunFolderHaveTheirRecordingsFetchedOverTheKeystore() throws Exception {
        java.io.PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            org.dsload.remote.RmiSecurity security = org.dsload.remote.RmiSecurity
                    .ssl(org.dsload.remote.RmiKeystore.ensure(Checkout.target().resolve("rmi"), quiet));
            Path work = Files.createDirectories(Checkout.target().resolve("test-results/remote-slaves-" + System.currentTimeMillis()));
            org.dsload.remote.LocalSlaves.Options options = new org.dsload.remote.LocalSlaves.Options(Checkout.jmeterHome(),
                    work.resolve("logs"), work, security, "256m");
            try (org.dsload.remote.LocalSlaves slaves = org.dsload.remote.LocalSlaves.start(options, 2, a -> Map.of())
                    .stopOnExit()) {
                List<String> hosts = slaves.addresses().stream().map(Object::toString).toList();
                PlanRun plan = plan(redis, "fetched", 5).remoteHosts(hosts).remoteDir(Checkout.target().resolve("rmi"))
                        .property("load_threads", "1").property("loops", COUNTED_LOOPS)
                        .property(RunProperties.RECORD, "histograms");
                Run run = run(plan);
                assertTrue(run.outcome().ok(), run.outcome().problem() + "\n" + run.console());
                for (String host : hosts) {
                    assertTrue(run.console().contains("fetched ") && run.console().contains(
                            " files (recordings, server gauges) of slave " + host), run.console());
                    // the slave's Redis gauges and counts came with its recording
                    assertTrue(Files.isRegularFile(run.outcome().dir().resolve("slaves").resolve(host.replace(':', '_'))
                            .resolve("redis-sent.tsv")), "the slave's counts were fetched");
                    Path engine = run.outcome().dir().resolve("slaves").resolve(host.replace(':', '_'))
                            .resolve(RecordingFormat.FOLDER).resolve(RunProperties.engine(host));
                    assertTrue(Files.isRegularFile(engine.resolve(RecordingFormat.CLOCK_OFFSET)), engine.toString());
                    assertTrue(Files.isRegularFile(engine.resolve("GET%20profile" + RecordingFormat.RAW_SUFFIX)));
                }
                Summary summary = run.outcome().summary();
                assertEquals(RedisCalls.of(redis, "GET"), summary.label(GET).requests());
                assertEquals(0, summary.total().samplesWithoutLatency(), "every slave's latencies were fetched");
                assertTrue(Files.isDirectory(work.resolve(Recording.DEFAULT_ROOT)), "the slaves keep their own copy");
            }
        }
    }

    private static long maxPerSecond(Path jtl) throws IOException {
        Map<Long, Long> perSecond = new HashMap<>();
        for (JtlSample s : PlanRuns.samples(jtl)) {
            if (s.label().equals(GET)) {
                perSecond.merge(s.start() / 1000, (long) s.sampleCount(), Long::sum);
            }
        }
        return perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Signals the JMeter process of the run well into its GETs; notes the GETs answered just before. */

    /**
     * Signals the first process this test started whose command line holds {@code process} once the
     * server has answered 3,000 GETs (rows in memory, rows written: a load well under way, however
     * slowly the machine let it start); notes the GETs answered just before.
     */
    private static Thread wellIntoTheGets(EmbeddedRedis redis, AtomicLong answeredBefore, String process,
            String signal) {
        return wellIntoTheGets(redis, answeredBefore, new AtomicLong(), process, signal);
    }

    /** As above, noting too the GETs the server answered in the second before the signal (all of them when younger). */
    private static Thread wellIntoTheGets(EmbeddedRedis redis, AtomicLong answeredBefore, AtomicLong inTheLastSecond,
            String process, String signal) {
        Thread t = new Thread(() -> {
            try {
                List<long[]> readings = new java.util.ArrayList<>(); // {nanoTime, GETs}
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                long gets;
                do {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("the server ran " + RedisCalls.of(redis, "GET") + " GETs in 3 minutes");
                    }
                    Thread.sleep(5);
                    gets = RedisCalls.of(redis, "GET");
                    readings.add(new long[] {System.nanoTime(), gets});
                    while (readings.size() > 1 && System.nanoTime() - readings.get(1)[0] >= 1_000_000_000L) {
                        readings.remove(0);
                    }
                } while (gets < 3_000);
                long[] oldest = readings.get(0);
                inTheLastSecond.set(System.nanoTime() - oldest[0] >= 1_000_000_000L ? gets - oldest[1] : gets);
                ProcessHandle target = ProcessHandle.current().descendants()
                        .filter(p -> p.info().commandLine().orElse("").contains(process)).findFirst().orElseThrow();
                answeredBefore.set(RedisCalls.of(redis, "GET"));
                new ProcessBuilder("kill", "-" + signal, Long.toString(target.pid())).start().waitFor();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "signal-" + signal);
        t.start();
        return t;
    }
}
