package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.dsload.cli.ExitCodes;
import org.dsload.plans.PlanRuns;
import org.dsload.process.Ports;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.testing.DsloadProcess;
import org.dsload.testing.Prerequisites;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/**
 * {@code bin/dsload run} and {@code bin/dsload scenarios} as a user runs them, against a real
 * redis-server (or none): a run that cannot succeed says why and ends with the exit code for it.
 */
@Timeout(600)
class RunExitCodesIT {
    private static final Duration LIMIT = Duration.ofMinutes(3);

    private static Path freshResults(String name) throws IOException {
        Path root = Checkout.target().resolve("test-results").resolve(name + "-" + System.nanoTime());
        return Files.createDirectories(root);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** redis-get-rate.jmx for a few seconds at a low rate, into its own results folder. */
    private static DsloadProcess getRate(Path results, Map<String, String> environment, String... properties)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("run", PlanRuns.plan("redis-get-rate.jmx").toString(),
                "--results", results.toString(), "--no-dashboard", "-Jduration=3", "-Jrate=100", "-Jthreads=2",
                "-Jwarmup=0", "-Jserver_gauges=false"));
        args.addAll(List.of(properties));
        return DsloadProcess.start(environment, args.toArray(String[]::new));
    }

    /** redis-get-rate.jmx with every {@code from} replaced by {@code to}, in the results folder: a plan a user edited. */
    private static Path editedGetRate(Path results, String name, String from, String to) throws IOException {
        String text = Files.readString(PlanRuns.plan("redis-get-rate.jmx"), StandardCharsets.UTF_8);
        assertTrue(text.contains(from), "the plan holds " + from);
        return Files.writeString(results.resolve(name), text.replace(from, to), StandardCharsets.UTF_8);
    }

    private static String summary(DsloadProcess run) throws IOException {
        return Files.readString(run.resultsDir().resolve("summary.txt"), StandardCharsets.UTF_8);
    }

    @Test
    void aServerThatCannotBeReachedRefusesTheRunAtItsStartWithExitCode3() throws Exception {
        Path results = freshResults("no-server");
        try (DsloadProcess run = getRate(results, Map.of(), "-Jhosts=127.0.0.1:" + closedPort())) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("dsload: the run was refused at its start"), run.output());
            String text = summary(run);
            assertTrue(text.contains("Run REFUSED: the run was refused at its start:\n  dsload Redis Connection"), text);
            assertTrue(text.contains("Refused: every sample is a configuration an element refused (code CONFIG)"), text);
            assertFalse(text.contains("no dsload_timing column"), text);
            assertFalse(Files.exists(results.resolve("latest"), LinkOption.NOFOLLOW_LINKS),
                    "a refused run does not become results/latest");
        }
    }

    @Test
    void valuesThePlanCannotUseRefuseTheRunBeforeJMeterStartsAndAMisspeltNameIsSaid() throws Exception {
        Path results = freshResults("bad-values");
        try (DsloadProcess run = getRate(results, Map.of(), "-Jhosts=127.0.0.1:" + closedPort(), "-Jduration=abc",
                "-Jthreads=-2", "-Jnil_is_failure=yes", "-Jduraton=5")) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("dsload: the plan redis-get-rate.jmx cannot use these values:\n"
                    + "  -Jduration=abc: must be a number (the plan's default: 60)\n"
                    + "  -Jthreads=-2: must not be below 0 (the plan's default: 1)\n"
                    + "  -Jnil_is_failure=yes: must be true or false (the plan's default: false)"), run.output());
            assertTrue(run.output().contains("dsload: -Jduraton is not a property redis-get-rate.jmx reads: JMeter passes "
                    + "it on unused; did you mean -Jduration?"), run.output());
            assertFalse(run.output().contains("JMeter pid"), "JMeter is not started: " + run.output());
        }
    }

    @Test
    void anArrivalRateItsElementRefusesEndsTheRunAsRefusedWithTheElementsReason() throws Exception {
        Path results = freshResults("bad-rate-field");
        // a value typed into the field (not a property the runner checks): the element refuses it at the test's start
        Path plan = editedGetRate(results, "get-rate-typed-rate.jmx", "<stringProp name=\"rate\">${__P(rate,1000)}</stringProp>",
                "<stringProp name=\"rate\">fast</stringProp>");
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             DsloadProcess run = DsloadProcess.start("run", plan.toString(), "--results", results.toString(),
                     "--no-dashboard", "-Jduration=3", "-Jthreads=2", "-Jwarmup=0", "-Jserver_gauges=false",
                     "-Jhosts=" + redis.address())) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("Run REFUSED: the run was refused at its start:\n  master: dsload: "
                    + "dsload Constant Arrival Rate 'constant arrival rate': field 'Target rate (arrivals/s)' must be a "
                    + "number of arrivals per second (such as 5000 or 0.5), got 'fast'"), run.output());
            assertEquals(0, RedisCalls.of(redis, "GET"), "no GET was sent");
        }
    }

    @Test
    void aPlanWithAnElementJMeterDoesNotHaveIsRefusedNamingItsClass() throws Exception {
        Path results = freshResults("unknown-element");
        // as a plan saved where a plugin was installed opens where it is not
        Path plan = editedGetRate(results, "with-unknown-element.jmx", "org.dsload.arrivals.ConstantArrivalRate",
                "com.example.NotInstalledTimer");
        try (DsloadProcess run = DsloadProcess.start("run", plan.toString(), "--results", results.toString(),
                "--no-dashboard", "-Jduration=3", "-Jhosts=127.0.0.1:" + closedPort())) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("dsload: the run was refused at its start:\n  JMeter could not load the plan: "
                    + "CannotResolveClassException: com.example.NotInstalledTimer at /jmeterTestPlan/hashTree/hashTree/"
                    + "hashTree[2]/com.example.NotInstalledTimer; no jar of the JMeter home holds that class"),
                    run.output());
        }
    }

    @Test
    void anInfluxDbThatCannotBeReachedRefusesTheRunThoughAJMeterSamplerFailedFirst() throws Exception {
        Path results = freshResults("no-influxdb");
        // the plan's setUp creates its database with JMeter's HTTP sampler, which fails before any dsload sampler runs
        try (DsloadProcess run = DsloadProcess.start("run", PlanRuns.plan("influxdb-write.jmx").toString(), "--results",
                results.toString(), "--no-dashboard", "-Jduration=2", "-Jwarmup=0", "-Jserver_gauges=false",
                "-Jinflux_port=" + closedPort())) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("Run REFUSED: the run was refused at its start:\n  master: dsload: dsload InfluxDB "
                    + "Connection 'InfluxDB connection': cannot reach InfluxDB: http://127.0.0.1:"), run.output());
        }
    }

    @Test
    void aWrongPasswordRefusesTheRunAtItsStart() throws Exception {
        Path results = freshResults("wrong-password");
        try (EmbeddedRedis guarded = EmbeddedRedis.start("127.0.0.1", Ports.free(), List.of("--requirepass", "right-one"));
             DsloadProcess run = getRate(results, Map.of("DSLOAD_TEST_REDIS_PW", "wrong-one"),
                     "-Jhosts=" + guarded.address(), "-Jredis_password=env:DSLOAD_TEST_REDIS_PW")) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            try (Jedis admin = new Jedis(guarded.host(), guarded.port())) {
                admin.auth("right-one");
                assertFalse(admin.info("commandstats").contains("cmdstat_get"), "no GET reached the server");
            }
            assertTrue(run.output().contains("dsload: the run was refused at its start"), run.output());
            assertFalse(run.output().contains("wrong-one"), "the password is not repeated");
        }
    }

    @Test
    void aRunWhoseEveryRequestFailsEndsWithExitCode4() throws Exception {
        Path results = freshResults("no-success");
        // an empty server answers every GET with nil, which this run counts as a failure
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             DsloadProcess run = getRate(results, Map.of(), "-Jhosts=" + redis.address(), "-Jnil_is_failure=true")) {
            assertEquals(ExitCodes.NO_SUCCESSFUL_SAMPLE, run.exitCode(LIMIT), run.output());
            long gets = RedisCalls.of(redis, "GET");
            assertTrue(gets > 0, "the load ran");
            assertTrue(run.output().contains("Run FAILED, no successful sample: no request succeeded: all " + gets
                    + " failed"), run.output());
            assertTrue(Files.isSymbolicLink(results.resolve("latest")), "a run that ran is results/latest");
        }
    }

    @Test
    void aFaultScheduleInAPlanWhoseThreadGroupsRunConsecutivelyRefusesTheTestBeforeItsLoad() throws Exception {
        Path results = freshResults("consecutive-faults");
        Path plan = results.resolve("get-rate-with-faults.jmx");
        Files.writeString(plan, PlanRuns.withRedisFaultSchedule(Files.readString(PlanRuns.plan("redis-get-rate.jmx"),
                StandardCharsets.UTF_8), "pause redis at 1s for 1s", ""), StandardCharsets.UTF_8);
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             DsloadProcess run = DsloadProcess.start("run", plan.toString(), "--results", results.toString(),
                "--no-dashboard", "-Jduration=3", "-Jrate=100", "-Jthreads=2", "-Jwarmup=0", "-Jhosts=" + redis.address(),
                "-Jredis_port=" + redis.port(), "-Jredis_pid=" + redis.pid())) {
            assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
            assertTrue(run.output().contains("dsload Fault Schedule 'pause redis': its faults cannot overlap the load: "
                    + "the Test Plan runs its thread groups consecutively"), run.output());
            assertEquals(0, RedisCalls.of(redis, "GET"), "the test was stopped before its load");
        }
    }

    @Test
    void aPlanInAReadOnlyFolderRunsWithItsRelativeFilesAndNothingIsWrittenBesideIt() throws Exception {
        Path results = freshResults("read-only-plan");
        Path plans = Files.createDirectories(results.resolve("plans"));
        // a CSV Data Set with a relative file name gives the key every GET reads
        String csv = """
                      <CSVDataSet guiclass="TestBeanGUI" testclass="CSVDataSet" testname="keys" enabled="true">
                        <stringProp name="filename">keys.csv</stringProp>
                        <stringProp name="fileEncoding">UTF-8</stringProp>
                        <stringProp name="variableNames">csvkey</stringProp>
                        <boolProp name="ignoreFirstLine">false</boolProp>
                        <stringProp name="delimiter">,</stringProp>
                        <boolProp name="quotedData">false</boolProp>
                        <boolProp name="recycle">true</boolProp>
                        <boolProp name="stopThread">false</boolProp>
                        <stringProp name="shareMode">shareMode.all</stringProp>
                      </CSVDataSet>
                      <hashTree/>
                """;
        String plan = Files.readString(PlanRuns.plan("redis-get-rate.jmx"), StandardCharsets.UTF_8)
                .replace("${__P(key_prefix,key:)}#{rand:${__P(keys,10000)}}", "${csvkey}")
                .replace("      </org.dsload.redis.RedisConnection>\n      <hashTree/>\n",
                        "      </org.dsload.redis.RedisConnection>\n      <hashTree/>\n" + csv);
        assertTrue(plan.contains("<CSVDataSet") && plan.contains("${csvkey}"), "the plan was edited");
        Files.writeString(plans.resolve("get.jmx"), plan, StandardCharsets.UTF_8);
        Files.writeString(plans.resolve("keys.csv"), "present:1\n", StandardCharsets.UTF_8);
        assertTrue(plans.toFile().setWritable(false, false));
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.set("present:1", "v");
            try (DsloadProcess run = DsloadProcess.start("run", plans.resolve("get.jmx").toString(), "--results",
                    // 4 s at 50/s: an arrival due as the threads end, on a busy machine, is 0.5 % of those measured (1 % of 2 s)
                    results.resolve("runs").toString(), "--no-dashboard", "-Jduration=4", "-Jrate=50", "-Jthreads=2",
                    "-Jserver_gauges=false", "-Jnil_is_failure=true", "-Jhosts=" + redis.address())) {
                // a key the CSV file did not give would be missing: every GET would fail (exit code 4)
                assertEquals(ExitCodes.OK, run.exitCode(LIMIT), run.output());
                assertTrue(RedisCalls.of(redis, "GET") > 0, "the load ran");
                assertTrue(summary(run).lines().anyMatch(l -> l.startsWith("Success ") && l.endsWith(" 100.00%")),
                        summary(run));
                assertFalse(run.output().contains("cannot be written"), run.output());
                // JMeter logs into jmeter.log alone: no log4j warning about its GUI appender on the console
                assertFalse(run.output().contains("StatusConsoleListener"), run.output());
                assertTrue(Files.readString(Files.list(results.resolve("runs")).filter(Files::isDirectory)
                        .filter(d -> !d.getFileName().toString().equals("latest")).findFirst().orElseThrow()
                        .resolve("jmeter.log"), StandardCharsets.UTF_8).contains("INFO o.a.j.JMeter: Version "),
                        "JMeter's log is written as before");
            }
        } finally {
            plans.toFile().setWritable(true, false);
        }
        try (java.util.stream.Stream<Path> files = Files.list(plans)) {
            assertEquals(List.of("get.jmx", "keys.csv"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no copy of the plan beside it, during the run or after");
        }
    }

    @Test
    void theMainJobMarksARefusedScenarioFailedAndSaysWhy() throws Exception {
        Path results = freshResults("main-job");
        int closed = closedPort();
        try (DsloadProcess job = DsloadProcess.start("scenarios", "ekv", "--slaves", "0", "--results", results.toString(),
                "--props", "hosts=127.0.0.1:" + closed + " duration=3 threads=1 profiles=10")) {
            assertEquals(ExitCodes.FAILED, job.exitCode(LIMIT), job.output());
            assertTrue(job.output().lines().anyMatch(l -> l.startsWith("ekv        FAILED, refused at its start: "
                    + "dsload Redis Connection 'ekv connection': cannot reach 127.0.0.1:" + closed)), job.output());
        }
    }

    @Test
    void aScenarioThatRanButMissedItsScheduleReadsMissedAndWithStrictFailsTheJob() throws Exception {
        if (EmbeddedInfluxDb.binary().isEmpty()) {
            Prerequisites.missing(EmbeddedInfluxDb.missingMessage(), EmbeddedInfluxDb.REQUIRED_ENV, "true");
        }
        Path results = freshResults("main-job-missed");
        // one thread sending one write at a time cannot keep 20,000 writes a second
        try (DsloadProcess job = DsloadProcess.start("scenarios", "influx", "--slaves", "0", "--results", results.toString(),
                "--strict", "--props", "rate=20000 threads=1 in_flight=1 warmup=0 duration=2")) {
            assertEquals(ExitCodes.FAILED, job.exitCode(LIMIT), job.output());
            List<String> rows = job.output().lines().filter(l -> l.startsWith("influx     ")).toList();
            assertTrue(rows.size() == 3 && rows.stream().allMatch(l -> l.startsWith("influx     missed: schedule, ")),
                    "its row as it ends, in the table, and again among the findings: " + rows + "\n" + job.output());
            assertTrue(job.output().contains("== dsload main job: 1 scenario ran but missed what it must keep, on this "
                    + "machine"), job.output());
        }
    }
}
