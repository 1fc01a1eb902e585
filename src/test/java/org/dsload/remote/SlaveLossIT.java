package org.dsload.remote;

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
import java.util.concurrent.atomic.AtomicLong;

import org.dsload.plans.PlanRuns;
import org.dsload.process.Ports;
import org.dsload.recording.QueuedSampleSender;
import org.dsload.redis.report.RedisServerSection;
import org.dsload.report.JtlSample;
import org.dsload.report.SlaveRoster;
import org.dsload.run.Ending;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.RedisCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slave killed during a run, and one that was never there. Each slave reads its own
 * redis-server (a property of the slave, not sent by the master), so the server of the surviving
 * slave counts exactly what that slave did, and the results file must hold all of it. A slave is
 * killed once its server counted its load, seconds before the run's planned end, and what is judged
 * (the verdict, the roster, exact counts, a lost slave noticed within 30 s) holds on a busy machine:
 * the class runs beside other test JVMs, but for its cross-check test.
 */
@Timeout(400)
class SlaveLossIT {
    /** The cross-check test's sampler threads per slave, and its slaves' sender settings. */
    private static final int THREADS = 2;
    private static final int SENDER_QUEUE = 300;
    private static final int SENDER_BATCH = 100;

    @Test
    void theRunEndsWithTheSurvivorKeepsAllItsSamplesAndNamesTheLostAndTheMissingSlave() throws Exception {
        Path results = Checkout.target().resolve("test-results");
        try (EmbeddedRedis forVictim = EmbeddedRedis.start(); EmbeddedRedis forSurvivor = EmbeddedRedis.start()) {
            try (LocalSlaves slaves = SlavesOfTheirOwn.start("slave-loss", forVictim, forSurvivor)) {
                SlaveProcess victim = slaves.slaves().get(0);
                SlaveProcess survivor = slaves.slaves().get(1);
                String missing = "127.0.0.9:" + Ports.free("127.0.0.9");
                AtomicLong killedAt = new AtomicLong();
                Thread killer = new Thread(() -> {
                    try {
                        RedisCalls.await(forVictim, "GET", 1_000, Duration.ofMinutes(3)); // its load well under way
                    } catch (InterruptedException e) {
                        return;
                    }
                    killedAt.set(System.currentTimeMillis());
                    victim.kill();
                }, "killer");
                killer.start();

                ByteArrayOutputStream console = new ByteArrayOutputStream();
                PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx")).resultsRoot(results)
                        .timeout(Duration.ofMinutes(4)).jvmArgs(List.of("-Xms256m", "-Xmx512m"))
                        .remoteDir(SlavesOfTheirOwn.keystoreDir()).allowMissingSlaves(true)
                        .remoteHosts(List.of(victim.address().toString(), survivor.address().toString(), missing))
                        // one reader a slave, 1 ms between its GETs: the survivor's load must last past the loss,
                        // and its every row is judged, not its volume (two readers at full speed took both cores
                        // for the 10 s, and one took what the other test JVMs needed)
                        .property("profiles", "500").property("threads", "1").property("think_ms", "1")
                        .property("duration", "10");
                PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
                killer.join(Duration.ofMinutes(1).toMillis());
                String said = console.toString(StandardCharsets.UTF_8);

                assertTrue(killedAt.get() > 0, "the victim was killed while it was reading");
                assertFalse(victim.isAlive());
                assertEquals(Ending.LOAD_INCOMPLETE, outcome.ending(), outcome.problem() + "\n" + said);
                assertTrue(outcome.problem().startsWith("the load did not run as planned:\n  slave " + victim.address()
                        + " was lost at "), outcome.problem());
                assertFalse(outcome.timedOut(), "the master was not left waiting for the lost slave");
                assertTrue(said.contains("dsload: lost slave " + victim.address()), said);

                SlaveRoster roster = SlaveRoster.read(outcome.dir()).orElseThrow();
                SlaveRoster.Entry lost = roster.in(SlaveRoster.State.LOST).get(0);
                assertEquals(victim.address().toString(), lost.address());
                assertTrue(lost.time() >= killedAt.get() && lost.time() < killedAt.get() + 30_000,
                        "lost " + (lost.time() - killedAt.get()) + " ms after the kill");
                assertEquals(List.of(survivor.address().toString()),
                        roster.in(SlaveRoster.State.USED).stream().map(SlaveRoster.Entry::address).toList());
                assertEquals(List.of(missing),
                        roster.in(SlaveRoster.State.MISSING).stream().map(SlaveRoster.Entry::address).toList());

                List<JtlSample> samples = PlanRuns.samples(outcome.jtl());
                String survivorPrefix = survivor.address() + "-";
                String victimPrefix = victim.address() + "-";
                long survivorGets = samples.stream().filter(s -> s.threadName().startsWith(survivorPrefix)
                        && s.label().equals("GET profile")).count();
                long survivorSets = samples.stream().filter(s -> s.threadName().startsWith(survivorPrefix)
                        && s.label().equals("SET profile")).mapToLong(JtlSample::sampleCount).sum();
                assertTrue(survivorGets > 0);
                assertEquals(RedisCalls.of(forSurvivor, "GET"), survivorGets, "every GET of the survivor has its row");
                assertEquals(RedisCalls.of(forSurvivor, "SET"), survivorSets);
                long victimGets = samples.stream().filter(s -> s.threadName().startsWith(victimPrefix)
                        && s.label().equals("GET profile")).count();
                assertTrue(victimGets <= RedisCalls.of(forVictim, "GET"), "the victim's unsent samples died with it");
                assertTrue(samples.stream().allMatch(s -> s.threadName().startsWith(survivorPrefix)
                        || s.threadName().startsWith(victimPrefix)));

                String text = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
                assertTrue(text.contains("Lost: " + victim.address() + " at "), text);
                assertTrue(text.contains("Missing: " + missing + " could not be reached"), text);
                assertTrue(text.contains("\nRun FAILED, not the planned load: the load did not run as planned:\n  slave "
                        + victim.address() + " was lost at "), text);
                assertTrue(text.lines().anyMatch(l -> l.startsWith(survivor.address() + " ") && l.contains(" used ")), text);
                assertTrue(Files.isRegularFile(outcome.dir().resolve("dashboard/index.html")),
                        "the dashboard is made from the results file when the master had to be stopped");
            }
        }
    }

    /**
     * Whether a slave of a run started since {@code since} has written a Redis counts file that counts
     * GETs: the reading has begun on it. A slave killed while its last count held only the load's SETs
     * (its rows of 100 SETs each) would have its GETs after that scaled by the SETs' commands per row.
     */
    private static boolean countsWritten(Path results, String slave, long since) {
        String folder = slave.replace(':', '_');
        try (java.util.stream.Stream<Path> runs = Files.list(results)) {
            return runs.map(run -> run.resolve("slaves").resolve(folder).resolve(RedisServerSection.FILE.countsName()))
                    .anyMatch(f -> {
                        try {
                            return Files.isRegularFile(f) && Files.getLastModifiedTime(f).toMillis() >= since
                                    && Files.readString(f, StandardCharsets.UTF_8).contains("\nget\t");
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    });
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Two slaves the run starts read one redis-server; one is killed mid-run. Its counts file was
     * last written up to a second before, so the cross-check takes what it sent after that from
     * its rows in the results file, and says so: the gap left is what never reached the master.
     */
    @Test
    // Alone: the lost slave's part after its last count is scaled by its commands per request before
    // it, from its rows in the results file, and the batch of rows it never sent is missing there. Killed
    // early, as a slave on a busy machine is (beside other test JVMs: 5 over in 38,303), that makes
    // the estimate exceed the server's count.
    @org.junit.jupiter.api.Tag("alone")
    void aLostSlavesPartOfTheCrossCheckComesFromTheResultsFileAndTheLineNamesIt() throws Exception {
        Path results = Checkout.target().resolve("test-results");
        long started = System.currentTimeMillis();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
            java.util.regex.Pattern slaveLine = java.util.regex.Pattern.compile("dsload: slave (\\S+) pid (\\d+)");
            java.util.concurrent.atomic.AtomicReference<String> victim = new java.util.concurrent.atomic.AtomicReference<>();
            Thread killer = new Thread(() -> {
                java.util.regex.Matcher m = slaveLine.matcher("");
                // engines start one after another: the victim is killed once it reads itself (its counts
                // file counts GETs) and the store has seen enough, so that its part is there to count
                try {
                    org.dsload.process.Deadline.await(() -> m.reset(console.toString(StandardCharsets.UTF_8)).find()
                            && RedisCalls.of(redis, "GET") >= 2000 && countsWritten(results, m.group(1), started),
                            Duration.ofMinutes(3), Duration.ofMillis(100));
                } catch (InterruptedException e) {
                    return;
                }
                if (m.find(0)) {
                    victim.set(m.group(1));
                    ProcessHandle.of(Long.parseLong(m.group(2))).ifPresent(ProcessHandle::destroyForcibly);
                }
            }, "killer");
            killer.start();
            PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx")).resultsRoot(results)
                    .timeout(Duration.ofMinutes(4)).jvmArgs(List.of("-Xms256m", "-Xmx512m")).localSlaves(2)
                    .property("hosts", redis.address()).property("profiles", "500")
                    .property("threads", Integer.toString(THREADS)).property("duration", "8")
                    .property(QueuedSampleSender.QUEUE_PROPERTY, Integer.toString(SENDER_QUEUE))
                    .property(QueuedSampleSender.BATCH_PROPERTY, Integer.toString(SENDER_BATCH));
            PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
            killer.join(Duration.ofMinutes(1).toMillis());
            String said = console.toString(StandardCharsets.UTF_8);
            assertTrue(victim.get() != null, "a slave was killed:\n" + said);
            assertTrue(said.contains("dsload: lost slave " + victim.get()), said);

            String text = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            String line = text.lines().filter(l -> l.startsWith("Cross-check [dsload reported, server counted]"))
                    .findFirst().orElseThrow(() -> new AssertionError("no cross-check:\n" + text));
            assertTrue(line.contains("; lost slave " + victim.get() + ": its last count (")
                    && line.endsWith(" requests the results file has of it after that"), line);
            java.util.regex.Matcher figures = java.util.regex.Pattern.compile("\\] (\\d+), (\\d+) ").matcher(line);
            assertTrue(figures.find(), line);
            long reported = Long.parseLong(figures.group(1));
            long counted = Long.parseLong(figures.group(2));
            assertEquals(RedisCalls.of(redis, "GET") + RedisCalls.of(redis, "SET"), counted, line);
            // what the killed slave sent but never told the master: the requests in flight (one per thread),
            // the rows queued for the master and the batch on its way. On a busy machine an RMI call of the
            // slave's sender may take a second or more, and its queue (20,000 by default) fills meanwhile;
            // here it holds SENDER_QUEUE rows, beyond which the sampler threads wait, so that the gap has a
            // bound whatever the machine's load: the batch on its way (a batch's rows and what was queued
            // when it left), the queue filled again meanwhile and a request per thread
            List<JtlSample> victimRows = PlanRuns.samples(outcome.jtl()).stream()
                    .filter(s -> s.threadName().startsWith(victim.get()) && s.label().equals("GET profile")).toList();
            long lastRow = victimRows.stream().mapToLong(JtlSample::start).max().orElse(0);
            long lastSecond = victimRows.stream().filter(s -> s.start() > lastRow - 1000).count();
            long bound = 2L * SENDER_QUEUE + SENDER_BATCH + THREADS;
            assertTrue(counted - reported >= 0 && counted - reported <= bound, "the gap is " + (counted - reported)
                    + ", more than " + bound + " (the victim's last second in the results file had " + lastSecond
                    + " GET rows): " + line);
        }
    }
}
