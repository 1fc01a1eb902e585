package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.core.format.RunProperties;
import org.dsload.process.Ports;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.RunCharts;
import org.dsload.report.SlaveOfSample;
import org.dsload.report.SlaveRoster;
import org.dsload.run.Ending;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/** test-plans/ekv-profile-get.jmx, headless, against a real redis-server. */
@Timeout(300)
class EkvProfilePlanIT {

    @Test
    void withItsDefaultsLoadsEveryProfileThenReadsThemAllSuccessfullyAsTheServerCounts() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            // the plan's defaults: 10,000 profiles, then 10 blocking readers through S3's pool, each reading 300
            // profiles (-Jloops): what is judged is that every reader read and the server counted each read, which
            // 3,000 reads show as well as the 100,000 or more that 3 s at full speed made, both cores busy
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of("hosts", redis.address(), "duration", "3",
                    "loops", "300"), Duration.ofMinutes(3), true);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());

            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            assertEquals(Set.of("SET profile", "GET profile"),
                    samples.stream().map(JtlSample::label).collect(Collectors.toSet()));
            List<JtlSample> loads = samples.stream().filter(s -> s.label().equals("SET profile")).toList();
            assertEquals(100, loads.size(), "10,000 profiles in pipelines of 100");
            assertEquals(10_000, loads.stream().mapToInt(JtlSample::sampleCount).sum());
            assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds");
            assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "every sample carries its µs timing");
            Set<String> threads = samples.stream().filter(s -> s.label().equals("GET profile"))
                    .map(JtlSample::threadName).collect(Collectors.toSet());
            assertEquals(10, threads.size(), "all ten readers sampled: " + threads);
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                assertEquals(10_000, jedis.dbSize());
            }

            LabelStats get = result.outcome().summary().label("GET profile");
            long gets = samples.stream().filter(s -> s.label().equals("GET profile")).count();
            assertEquals(gets, get.requests(), "the summary counts every sample in the file");
            assertEquals(gets, RedisCalls.of(redis, "GET"), "one blocking GET per sample, each run by the server");
            assertEquals(1.0, get.successRatio());
            String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(text.contains("== GET profile =="), text);
            assertTrue(text.contains("Status Codes  [code:count]                      OK:" + gets), text);
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("summary.json")));
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("dashboard/index.html")), "HTML dashboard");
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve(RunCharts.LATENCY)), "charts");
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("jmeter.log")));
        }
    }

    @Test
    void aThinkTimePausesEachReaderBeforeEachOfItsGetsOutsideTheGetsTime() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            // two readers of 20 GETs each, 100 ms before each GET
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of("hosts", redis.address(), "profiles", "100",
                    "threads", "2", "rampup", "0", "loops", "20", "think_ms", "100", "duration", "60"),
                    Duration.ofMinutes(2), false);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
            List<JtlSample> gets = PlanRuns.samples(result.outcome().jtl()).stream()
                    .filter(s -> s.label().equals("GET profile")).toList();
            assertEquals(40, gets.size());
            assertEquals(40, RedisCalls.of(redis, "GET"));
            Map<String, List<JtlSample>> byReader = gets.stream().collect(Collectors.groupingBy(JtlSample::threadName));
            assertEquals(2, byReader.size(), byReader.keySet().toString());
            for (List<JtlSample> reader : byReader.values()) {
                List<Long> starts = reader.stream().map(JtlSample::start).sorted().toList();
                for (int i = 1; i < starts.size(); i++) {
                    // start times in whole ms: 100 ms apart or more, less at most the rounding
                    assertTrue(starts.get(i) - starts.get(i - 1) >= 99, "GETs of a reader " + (starts.get(i)
                            - starts.get(i - 1)) + " ms apart: " + starts);
                }
            }
            // the pause comes before the sample: a GET on loopback takes microseconds, not the 100 ms
            long median = gets.stream().map(JtlSample::elapsed).sorted().toList().get(gets.size() / 2);
            assertTrue(median < 50, "median GET time " + median + " ms");
        }
    }

    @Test
    void withRequestsInFlightEachRowStandsForSeveralGetsAndTheServerCountsEveryOne() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of("hosts", redis.address(),
                    "profiles", "2000", "value_sizes", "100", "threads", "2", "in_flight", "10", "duration", "4",
                    // 200 samples a thread: some 6,000 GETs (a sample takes what completed, 16 or so), where 4 s at
                    // full speed made over 100,000; the counts are judged, not the volume
                    "loops", "200"), Duration.ofMinutes(3), false);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
            InFlightCounts gets = InFlightCounts.of(result.outcome(), "GET profile");
            assertFalse(Files.exists(result.outcome().dir().resolve(RunCharts.LATENCY)),
                    "no charts where the run was asked for none");
            assertTrue(gets.rows() < gets.requests(), "rows stand for several requests: " + gets);
            assertEquals(gets.requests(), result.outcome().summary().label("GET profile").requests(),
                    "the summary counts requests, not rows");
            gets.assertServerCounted(RedisCalls.of(redis, "GET"));
            assertTrue(gets.ok() > 1000, gets.toString());
            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.lines().anyMatch(l -> l.startsWith("Cross-check [dsload reported, server counted]")
                    && l.contains("(match)") && l.contains("GET")), "the sent GETs are counted for the cross-check:\n"
                    + summary);
        }
    }

    @Test
    void withSeveralGetsPerSampleBothRecordingsCountEveryGetAsTheServerDoes() throws Exception {
        for (String mode : List.of("rows", "histograms")) {
            try (EmbeddedRedis redis = EmbeddedRedis.start()) {
                PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of("hosts", redis.address(),
                        "profiles", "2000", "value_sizes", "100", "threads", "2", "requests_per_sample", "50",
                        // 100 samples of 50 GETs a thread: 10,000 GETs, each counted (not as many as 4 s allow)
                        "duration", "4", "loops", "100", RunProperties.RECORD, mode), Duration.ofMinutes(3), false);
                assertTrue(result.outcome().ok(), mode + ": " + result.outcome().problem() + "\n" + result.console());
                LabelStats get = result.outcome().summary().label("GET profile");
                assertEquals(RedisCalls.of(redis, "GET"), get.requests(), mode + ": the summary counts each GET");
                assertEquals(1.0, get.successRatio(), mode);
                assertTrue(get.requests() > 1000, mode + ": " + get.requests());
                InFlightCounts rows = InFlightCounts.of(result.outcome(), "GET profile");
                if (mode.equals("rows")) {
                    assertEquals(get.requests(), rows.requests(), "each GET read back from its row's timing");
                    assertTrue(rows.rows() * 10 < rows.requests(), "a row stands for up to 50 GETs: " + rows);
                    assertTrue(get.latencies().exact());
                } else {
                    assertFalse(get.latencies().exact(), "percentiles from the interval logs");
                }
            }
        }
    }

    @Test
    void withRequestsInFlightOnTwoLocalSlavesEveryGetReachesTheMaster() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx"))
                    .resultsRoot(Checkout.target().resolve("test-results")).timeout(Duration.ofMinutes(4))
                    .jvmArgs(List.of("-Xms256m", "-Xmx512m")).dashboard(false).slaveHeap("256m")
                    .remoteDir(Checkout.target().resolve("rmi")).localSlaves(2)
                    .property("hosts", redis.address()).property("profiles", "1000").property("value_sizes", "100")
                    .property("threads", "2").property("in_flight", "8").property("duration", "4")
                    // 200 samples a thread, some 12,000 GETs over both slaves: every one is counted at the master
                    .property("loops", "200");
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
            assertTrue(outcome.ok(), outcome.problem() + "\n" + console.toString(StandardCharsets.UTF_8));
            InFlightCounts gets = InFlightCounts.of(outcome, "GET profile");
            assertTrue(gets.rows() < gets.requests(), gets.toString());
            gets.assertServerCounted(RedisCalls.of(redis, "GET"));
            List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
            List<String> slaves = SlaveRoster.read(outcome.dir()).orElseThrow().in(SlaveRoster.State.USED).stream()
                    .map(SlaveRoster.Entry::address).toList();
            SlaveOfSample slaveOf = new SlaveOfSample(slaves);
            Set<String> engines = samples.stream().filter(s -> s.label().equals("GET profile"))
                    .map(s -> String.valueOf(slaveOf.of(s.threadName()))).collect(Collectors.toSet());
            assertEquals(Set.copyOf(slaves), engines, "both slaves sent GETs");
            assertTrue(samples.stream().filter(s -> s.label().equals("GET profile")).allMatch(JtlSample::timedInMicros),
                    "every request's own timing reached the master");
        }
    }

    @Test
    void aLoadTheServerRefusesStopsTheTestBeforeTheReadsAndFailsTheRun() throws Exception {
        // a server out of memory refuses writes with OOM, an error a later retry may get past: only the
        // setUp thread group's own rule stops the test, not the sampler's stop on unrecoverable errors
        try (EmbeddedRedis redis = EmbeddedRedis.start("127.0.0.1", Ports.free(),
                List.of("--maxmemory", "8mb", "--maxmemory-policy", "noeviction"))) {
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of("hosts", redis.address(),
                    "profiles", "2000", "value_sizes", "8192", "threads", "4", "duration", "60"),
                    Duration.ofMinutes(3), false);
            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            Map<String, Long> labels = samples.stream().collect(Collectors.groupingBy(JtlSample::label,
                    Collectors.counting()));
            assertEquals(Set.of("SET profile"), labels.keySet(), "no read ran after the failed load: " + labels);
            assertTrue(samples.stream().anyMatch(s -> !s.success() && s.responseCode().equals("OOM")),
                    samples.get(samples.size() - 1).responseCode());
            assertEquals(Ending.FAILED, result.outcome().ending(), result.outcome().problem());
            assertTrue(result.outcome().problem().contains("setUp thread group 'load profiles': failed at "
                    + "'SET profile': OOM: "), result.outcome().problem());
            assertTrue(result.console().contains("dsload: the setUp thread group 'load profiles' failed at 'SET profile': "
                    + "OOM: "), result.console());
            assertTrue(result.console().contains("so the test stops before its run phase"), result.console());
        }
    }

    @Test
    void aMalformedPropertyIsRefusedBeforeJMeterAndTypedIntoTheFieldStopsTheRunAtOnceNamingTheField() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRuns.Result refused = PlanRuns.run("ekv-profile-get.jmx", Map.of(
                    "hosts", redis.address(), "socket_timeout", "2s", "duration", "120"), Duration.ofMinutes(2));
            assertEquals(Ending.REFUSED, refused.outcome().ending(), refused.console());
            assertTrue(refused.outcome().problem().contains(
                    "-Jsocket_timeout=2s: must be a number (the plan's default: 2000)"), refused.outcome().problem());
            assertFalse(refused.console().contains("JMeter pid"), "JMeter is not started: " + refused.console());

            // the same value typed into the field, where only the element reads it
            String text = Files.readString(PlanRuns.plan("ekv-profile-get.jmx"), StandardCharsets.UTF_8);
            String field = "<stringProp name=\"socketTimeout\">${__P(socket_timeout,2000)}</stringProp>";
            assertTrue(text.contains(field), "the plan's socket timeout field");
            java.nio.file.Path plan = Files.createTempFile(Checkout.target(), "ekv-typed-timeout", ".jmx");
            Files.writeString(plan, text.replace(field, "<stringProp name=\"socketTimeout\">2s</stringProp>"),
                    StandardCharsets.UTF_8);
            long started = System.nanoTime();
            PlanRuns.Result result = PlanRuns.run(plan, Map.of("hosts", redis.address(), "duration", "120"),
                    Duration.ofMinutes(2), false);
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            Files.delete(plan);
            assertTrue(seconds < 60, "the run stops instead of running its 120 s, took " + seconds + " s");
            assertTrue(result.console().contains("dsload: dsload Redis Connection 'ekv connection': field "
                    + "'Socket timeout (ms)' must be a whole number of at least 1, got '2s'"), result.console());
            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            assertFalse(samples.isEmpty());
            JtlSample first = samples.get(0);
            assertFalse(first.success());
            assertEquals("CONFIG", first.responseCode());
            assertTrue(first.responseMessage().contains("field 'Socket timeout (ms)'"), first.responseMessage());
            assertEquals(Ending.REFUSED, result.outcome().ending());
        }
    }

    @Test
    void theJMeterJvmStartsWithTheClassesOfTheArchiveThatInstallMadeInTheHome() throws Exception {
        java.nio.file.Path archive = Checkout.jmeterHome().resolve("bin").resolve(org.dsload.process.JMeterJvm.CLASS_DATA);
        assertTrue(Files.isRegularFile(archive), "the build's install made " + archive);
        java.nio.file.Path loads = Files.createTempFile(Checkout.target(), "class-loads", ".txt");
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx"))
                    .resultsRoot(Checkout.target().resolve("test-results")).timeout(Duration.ofMinutes(2)).dashboard(false)
                    .jvmArgs(List.of("-Xms256m", "-Xmx512m", "-Xlog:class+load=info:file=" + loads))
                    .property("hosts", redis.address()).property("profiles", "100").property("duration", "1")
                    .property("loops", "100");
            PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
            assertTrue(outcome.ok(), outcome.problem() + "\n" + console);
            List<String> lines = Files.readAllLines(loads, StandardCharsets.UTF_8);
            String archived = " source: shared objects file (top)";
            String shared = " source: shared objects file";
            // JMeter's engine and dsload's sampler, from lib/ext/ through the launcher install made beside the archive
            for (String name : List.of("org.apache.jmeter.engine.StandardJMeterEngine", "org.dsload.redis.RedisSampler",
                    "org.dsload.redis.RedisConnection")) {
                assertTrue(lines.stream().anyMatch(l -> l.endsWith(" " + name + archived)), name + " not from the archive");
            }
            long fromArchive = lines.stream().filter(l -> l.endsWith(archived)).count();
            long fromEither = lines.stream().filter(l -> l.contains(shared)).count();
            System.out.printf("dsload: %d of %d classes loaded from %s, %d from it or the JDK's archive%n", fromArchive,
                    lines.size(), archive, fromEither);
            // through JMeter's own launcher (its class loader) two thirds came from the two archives
            // in a run like this one (3,678 of 5,482); through dsload's launcher 87 % (4,766 of 5,488)
            assertTrue(fromEither > lines.size() * 3 / 4, fromEither + " of " + lines.size());
        } finally {
            Files.deleteIfExists(loads);
        }
    }
}
