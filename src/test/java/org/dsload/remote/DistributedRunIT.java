package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.dsload.core.format.RunProperties;
import org.dsload.plans.PlanRuns;
import org.dsload.process.Ports;
import org.dsload.recording.EndForAll;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.SlaveOfSample;
import org.dsload.report.SlaveRoster;
import org.dsload.report.SlavesSection;
import org.dsload.run.Ending;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** test-plans/ekv-profile-get.jmx from a master on jmeter-server slaves, against a real redis-server. */
@Timeout(400)
class DistributedRunIT {
    private static EmbeddedRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private static PlanRun ekv() {
        return ekv(PlanRuns.plan("ekv-profile-get.jmx"));
    }

    /** {@code plan}, an ekv plan, on the test's Redis with small heaps and no dashboard. */
    private static PlanRun ekv(Path plan) {
        return new PlanRun(Checkout.jmeterHome(), plan)
                .resultsRoot(Checkout.target().resolve("test-results")).timeout(Duration.ofMinutes(4))
                .jvmArgs(List.of("-Xms256m", "-Xmx512m")).dashboard(false).slaveHeap("256m")
                .remoteDir(Checkout.target().resolve("rmi"))
                .property("hosts", redis.address()).property("profiles", "1000").property("threads", "2");
    }

    @Test
    void twoLocalSlavesBothContributeEverySampleArrivesAndTheSummaryHasARowPerSlave() throws Exception {
        RedisCalls.reset(redis);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8))
                // 1,000 GETs a thread, 4,000 over both slaves, each one's row judged at the master: as many as 4 s at
                // full speed would make took both cores for those seconds
                .run(ekv().localSlaves(2).property("duration", "4").property("loops", "1000"));
        String said = console.toString(StandardCharsets.UTF_8);
        assertTrue(outcome.ok(), outcome.problem() + "\n" + said);
        Path dir = outcome.dir();

        List<String> slaves = SlaveRoster.read(dir).orElseThrow().in(SlaveRoster.State.USED).stream()
                .map(SlaveRoster.Entry::address).toList();
        assertEquals(2, slaves.size(), slaves.toString());
        assertTrue(slaves.get(0).startsWith("127.0.0.2:") && slaves.get(1).startsWith("127.0.0.3:"), slaves.toString());

        List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
        SlaveOfSample slaveOf = new SlaveOfSample(slaves);
        Map<String, List<JtlSample>> bySlave = samples.stream().collect(Collectors.groupingBy(
                s -> String.valueOf(slaveOf.of(s.threadName()))));
        assertEquals(java.util.Set.copyOf(slaves), bySlave.keySet(), "every sample names one of the two slaves in its thread name");
        for (String slave : slaves) {
            List<JtlSample> own = bySlave.get(slave);
            assertTrue(own.stream().anyMatch(s -> s.label().equals("GET profile")), slave + " read profiles");
            assertEquals(1000, own.stream().filter(s -> s.label().equals("SET profile")).mapToInt(JtlSample::sampleCount)
                    .sum(), slave + "'s setUp group loaded every profile");
        }
        assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds");
        assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "dsload_timing reached the master from the slaves");
        assertEquals(1, samples.stream().map(JtlSample::hostname).distinct().count(),
                "the Hostname column cannot tell local slaves apart");

        long gets = samples.stream().filter(s -> s.label().equals("GET profile")).count();
        assertEquals(RedisCalls.of(redis, "GET"), gets, "one row per GET the server answered: none lost on the way");
        assertEquals(RedisCalls.of(redis, "SET"),
                samples.stream().filter(s -> s.label().equals("SET profile")).mapToLong(JtlSample::sampleCount).sum());

        SlavesSection.Figures figures = SlavesSection.figures(dir, outcome.summary()).orElseThrow();
        long perSlave = figures.slaves().values().stream().mapToLong(LabelStats::requests).sum();
        assertEquals(outcome.summary().total().requests(), perSlave, "the per-slave rows add up to the run");
        assertEquals(outcome.summary().total().requests(), figures.whole().requests());
        for (double p : new double[] {50, 90, 99, 100}) {
            assertEquals(outcome.summary().total().latencies().percentile(p), figures.whole().latencies().percentile(p));
        }
        String text = Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("== Slaves =="), text);
        for (String slave : slaves) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith(slave + " ") && l.contains(" used ")), text);
            assertTrue(Files.isRegularFile(dir.resolve("slaves").resolve(slave.replace(':', '_') + ".log")));
        }
        assertTrue(text.lines().anyMatch(l -> l.startsWith("all slaves ")), text);
        // the slaves started their threads at the one instant the run gave them: the skew is what is left
        Matcher skew = Pattern.compile("(?m)^Start: .*\\(when each slave started its thread groups\\); start skew: (\\d+) ms "
                + "between the first and last engine's start$").matcher(text);
        assertTrue(skew.find(), text);
        assertTrue(Long.parseLong(skew.group(1)) < 500, "a bound for a shared machine; measured " + skew.group(1)
                + " ms:\n" + text);
        System.out.println("start skew of the 2 local slaves: " + skew.group(1) + " ms");
        assertTrue(text.contains("Percentiles are exact"), text);

        Matcher pids = Pattern.compile("dsload: slave \\S+ pid (\\d+)").matcher(said);
        int stopped = 0;
        while (pids.find()) {
            assertFalse(ProcessHandle.of(Long.parseLong(pids.group(1))).map(ProcessHandle::isAlive).orElse(false),
                    "the run stops the slaves it started");
            stopped++;
        }
        assertEquals(2, stopped, said);
    }

    @Test
    void withFewerSlavesThanMinSlavesReachableTheRunIsRefusedBeforeAnyLoadAndWithEnoughItGoesOnNamingTheMissing()
            throws Exception {
        RedisCalls.reset(redis);
        String nobody = "127.0.0.9:" + Ports.free("127.0.0.9");
        ByteArrayOutputStream refusedConsole = new ByteArrayOutputStream();
        long started = System.nanoTime();
        PlanRunner.Outcome refused = new PlanRunner(new PrintStream(refusedConsole, true, StandardCharsets.UTF_8))
                .run(ekv().localSlaves(1).remoteHosts(List.of(nobody)).minSlaves(2).property("duration", "30"));
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertEquals(Ending.REFUSED, refused.ending(), refused.problem() + "\n" + refusedConsole);
        String problem = refused.problem();
        assertTrue(problem.contains("no load was started") && problem.contains(nobody + " (its RMI registry port ")
                && problem.contains("refused the connection"), problem);
        assertFalse(Files.exists(refused.dir().resolve("jmeter.out")), "JMeter was never started");
        assertFalse(Files.exists(refused.jtl()));
        assertEquals(0, RedisCalls.of(redis, "GET") + RedisCalls.of(redis, "SET"), "no load reached the server");
        assertEquals(List.of(nobody), SlaveRoster.read(refused.dir()).orElseThrow().in(SlaveRoster.State.MISSING).stream()
                .map(SlaveRoster.Entry::address).toList());
        assertTrue(seconds < 60, "reported at once, took " + seconds + " s");

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8))
                .run(ekv().localSlaves(1).remoteHosts(List.of(nobody)).minSlaves(1).property("duration", "3")
                        .property("loops", "1000"));
        String said = console.toString(StandardCharsets.UTF_8);
        assertEquals(Ending.OK, outcome.ending(), outcome.problem() + "\n" + said);
        assertTrue(said.contains("dsload: going on with 1 of 2 slaves (at least 1 needed), without the unreachable: "
                + nobody + " (its RMI registry port"), said);
        String summary = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.contains("Missing: " + nobody + " could not be reached before the run (its RMI registry port "),
                summary);
        assertTrue(summary.lines().anyMatch(l -> l.matches("127\\.0\\.0\\.2:\\d+\\s+used\\s+[1-9].*")), summary);
    }

    /**
     * A fault experiment over two slaves: the first applies a schedule (Redis paused for a second) and ends its
     * test a second after the pause; the other only carries load, with a duration far beyond. The run ends on
     * both once the first has, not at the duration.
     */
    @Test
    void theOtherSlaveStopsOnceTheSlaveThatInjectedTheFaultsHasEndedItsTest() throws Exception {
        Path dir = Files.createDirectories(Checkout.target().resolve("test-results").resolve("end-for-all-" + System.nanoTime()));
        Path plan = dir.resolve("ekv-with-a-pause.jmx");
        String text = Files.readString(PlanRuns.plan("ekv-profile-get.jmx"), StandardCharsets.UTF_8)
                .replace("<boolProp name=\"TestPlan.serialize_threadgroups\">true</boolProp>",
                        "<boolProp name=\"TestPlan.serialize_threadgroups\">false</boolProp>");
        Files.writeString(plan, PlanRuns.withRedisFaultSchedule(text, "pause redis at 2s for 1s", "1s"), StandardCharsets.UTF_8);

        // a schedule the injecting engine refuses: the run is refused, and the other engine stops with it
        ByteArrayOutputStream refusedConsole = new ByteArrayOutputStream();
        long refusedStart = System.nanoTime();
        PlanRunner.Outcome refused = new PlanRunner(new PrintStream(refusedConsole, true, StandardCharsets.UTF_8))
                .run(pausing(plan, dir).property("command_timeout", "0"));
        long refusedSeconds = Duration.ofNanos(System.nanoTime() - refusedStart).toSeconds();
        String refusedSaid = refusedConsole.toString(StandardCharsets.UTF_8);
        assertEquals(Ending.REFUSED, refused.ending(), refused.problem() + "\n" + refusedSaid);
        assertTrue(refusedSaid.contains(EndForAll.LINE + "engine 127.0.0.2:"), refusedSaid);
        assertTrue(refusedSeconds < 150, "the refused run ended at once, not at its duration of 300 s: " + refusedSeconds + " s");

        RedisCalls.reset(redis);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        long started = System.nanoTime();
        PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8))
                .run(pausing(plan, dir));
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        String said = console.toString(StandardCharsets.UTF_8);
        assertTrue(outcome.ok(), outcome.ending() + " " + outcome.problem() + "\n" + said);
        assertTrue(said.contains(EndForAll.LINE + "the engine that injected the faults (127.0.0.2:"), said);
        assertTrue(seconds < 150, "the run ended with the fault experiment, not at its duration of 300 s: " + seconds + " s");

        List<JtlSample> samples = PlanRuns.samplesWithFaultMarkers(outcome.jtl());
        List<JtlSample> marks = samples.stream().filter(s -> s.label().startsWith("fault:")).toList();
        assertEquals(List.of("APPLIED", "REVERTED"), marks.stream().map(JtlSample::responseCode).toList(), marks.toString());
        assertTrue(marks.stream().allMatch(m -> m.threadName().startsWith("127.0.0.2:")), "the first slave injects");
        long reverted = marks.get(1).start() + marks.get(1).elapsed();
        List<JtlSample> other = samples.stream().filter(s -> s.threadName().startsWith("127.0.0.3:")
                && s.label().equals("GET profile")).toList();
        assertFalse(other.isEmpty(), "the other slave carried load");
        long lastOther = other.stream().mapToLong(s -> s.start() + s.elapsed()).max().orElseThrow();
        assertTrue(lastOther < reverted + 60_000, "the other slave stopped soon after the experiment: its last GET ended "
                + (lastOther - reverted) + " ms after the revert");
        assertEquals(RedisCalls.of(redis, "GET"), samples.stream().filter(s -> s.label().equals("GET profile")).count(),
                "every GET of both slaves recorded: the other slave's last samples reached the master");
    }

    /**
     * The plan with the pause on two local slaves, for 300 s unless a slave ends the test: one reader a slave,
     * 1 ms between its GETs, since what is judged is when the load ends and that every GET has its row.
     */
    private static PlanRun pausing(Path plan, Path results) {
        return ekv(plan).resultsRoot(results).localSlaves(2).property(RunProperties.EXPECT_FAULTS, "true")
                .property("profiles", "100").property("threads", "1").property("think_ms", "1")
                .property("redis_port", Integer.toString(redis.port())).property("redis_pid", Long.toString(redis.pid()))
                .property("duration", "300");
    }
}
