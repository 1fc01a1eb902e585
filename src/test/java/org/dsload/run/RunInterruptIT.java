package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.cli.ExitCodes;
import org.dsload.plans.PlanRuns;
import org.dsload.process.Deadline;
import org.dsload.process.ProcessTree;
import org.dsload.report.JtlSample;
import org.dsload.report.RunCharts;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.DsloadProcess;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/dsload run} of the ekv plan stopped while its load runs, as a user stops it: Ctrl-C in
 * its terminal, SIGTERM to its JVM, SIGKILL. Each time, no process it started is left, and what
 * the redis-server counted has its row in the results.
 */
@Timeout(600)
class RunInterruptIT {
    private static final Duration LIMIT = Duration.ofMinutes(3);

    /**
     * A run that would take two minutes, once its GETs have started: two readers, 1 ms between their GETs, since
     * what is judged is how the run ends and that every GET has its row, not how many there are.
     */
    private static DsloadProcess longRun(EmbeddedRedis redis, String name, String... extra) throws Exception {
        Path results = Files.createDirectories(Checkout.target().resolve("test-results").resolve(name + "-" + System.nanoTime()));
        List<String> args = new ArrayList<>(List.of("run", PlanRuns.plan("ekv-profile-get.jmx").toString(), "--results",
                results.toString(), "-Jhosts=" + redis.address(), "-Jduration=120", "-Jthreads=2", "-Jprofiles=500",
                "-Jthink_ms=1"));
        args.addAll(List.of(extra));
        DsloadProcess run = DsloadProcess.start(args.toArray(String[]::new));
        assertTrue(Deadline.await(() -> RedisCalls.of(redis, "GET") > 1000, LIMIT, Duration.ofMillis(200)),
                "the load started:\n" + run.output());
        return run;
    }

    /** Every GET the server answered, and every SET of the setup, has its row in the results file. */
    private static void everyRequestHasItsRow(EmbeddedRedis redis, Path dir) throws Exception {
        Path jtl = dir.resolve("ekv-profile-get.jtl");
        List<JtlSample> samples = PlanRuns.samples(jtl);
        assertEquals(RedisCalls.of(redis, "GET"), samples.stream().filter(s -> s.label().equals("GET profile")).count(),
                "GET rows");
        assertEquals(RedisCalls.of(redis, "SET"), samples.stream().filter(s -> s.label().equals("SET profile"))
                .mapToLong(JtlSample::sampleCount).sum(), "SET requests");
    }

    private static void gone(long pid, String what) throws InterruptedException {
        assertTrue(ProcessTree.alive(pid).isEmpty() || ProcessTree.awaitExit(ProcessHandle.of(pid).orElseThrow(),
                Duration.ofSeconds(60)), what + " (pid " + pid + ") is left running");
    }

    @Test
    void ctrlCEndsTheRunWithItsSummaryChartsAndDashboardAndExitCode130() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); DsloadProcess run = longRun(redis, "ctrl-c")) {
            run.ctrlC();
            assertEquals(ExitCodes.INTERRUPTED, run.exitCode(LIMIT), run.output());
            Path dir = run.resultsDir();
            assertTrue(run.output().contains("dsload: SIGINT: the run is interrupted"), run.output());
            String summary = Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("Run INTERRUPTED: the run was interrupted (SIGINT)"), summary);
            assertTrue(Files.isRegularFile(dir.resolve(RunCharts.THROUGHPUT)));
            everyRequestHasItsRow(redis, dir);
            gone(run.jmeterPid().orElseThrow(), "JMeter");

            // the dashboard of what was recorded, its dates as dates, and what sets it apart from the summary
            String index = Files.readString(dir.resolve("dashboard/index.html"), StandardCharsets.UTF_8);
            assertFalse(index.matches("(?s).*<td>Start Time</td>\\s*<td>\"\\d{1,4}\"</td>.*"), "a date, not mmss");
            assertTrue(index.matches("(?s).*<td>Start Time</td>\\s*<td>\"[^\"]*\\d+:\\d\\d[^\"]*\"</td>.*"), "a time of day");
            assertTrue(index.contains(DashboardNote.MARK), "the first page says where it differs from the summary");
            String readme = Files.readString(dir.resolve(DashboardNote.README), StandardCharsets.UTF_8);
            assertTrue(readme.contains("rows hold"), "the setup's pipelined SETs are rows of many requests:\n" + readme);
            assertTrue(summary.contains("dashboard/README.txt says which and why"), summary);
        }
    }

    @Test
    void sigtermToTheRunnerAloneStopsItsJMeterAndSlaveAndKeepsEveryRow() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             DsloadProcess run = longRun(redis, "sigterm", "--slaves", "1", "--no-dashboard")) {
            long jmeter = run.jmeterPid().orElseThrow();
            List<Long> slaves = run.slavePids();
            assertEquals(1, slaves.size(), run.output());
            run.signal("TERM");
            assertEquals(ExitCodes.TERMINATED, run.exitCode(LIMIT), run.output());
            gone(jmeter, "JMeter");
            gone(slaves.get(0), "the slave");
            Path dir = run.resultsDir();
            everyRequestHasItsRow(redis, dir);
            assertTrue(Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8)
                    .contains("Run INTERRUPTED: the run was interrupted (SIGTERM)"));
        }
    }

    @Test
    void aRunnerKilledOutrightLeavesNoJMeterAndNoSlave() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             DsloadProcess run = longRun(redis, "sigkill", "--slaves", "1", "--no-dashboard")) {
            long jmeter = run.jmeterPid().orElseThrow();
            List<Long> slaves = run.slavePids();
            run.signal("KILL");
            run.exitCode(LIMIT);
            gone(jmeter, "JMeter");
            gone(slaves.get(0), "the slave");
        }
    }
}
