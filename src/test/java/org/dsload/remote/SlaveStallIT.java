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

import org.dsload.plans.PlanRuns;
import org.dsload.process.Deadline;
import org.dsload.process.Signals;
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
 * A slave frozen (SIGSTOP) during a run: its process lives and its port accepts connections, but
 * it says nothing. The run must notice, end once the other slave is done, and name it. The slave is
 * frozen once its server counted its first GET, and the verdict, the roster and the other slave's
 * exact counts hold on a busy machine (a stall is 15 s of silence, which a working slave never
 * keeps): the class runs beside other test JVMs.
 */
@Timeout(400)
class SlaveStallIT {

    @Test
    void aFrozenSlaveIsNamedStalledAndTheRunEndsWhenTheOtherIsDone() throws Exception {
        Path results = Checkout.target().resolve("test-results");
        try (EmbeddedRedis forFrozen = EmbeddedRedis.start(); EmbeddedRedis forOther = EmbeddedRedis.start()) {
            try (LocalSlaves slaves = SlavesOfTheirOwn.start("slave-stall", forFrozen, forOther)) {
                SlaveProcess frozen = slaves.slaves().get(0);
                SlaveProcess other = slaves.slaves().get(1);
                Thread freezer = new Thread(() -> {
                    try {
                        Deadline.await(() -> RedisCalls.of(forFrozen, "GET") > 0, Duration.ofMinutes(3), Duration.ofMillis(100));
                        Signals.stopConfirmed(frozen.pid(), Duration.ofSeconds(10));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, "freezer");
                freezer.start();

                ByteArrayOutputStream console = new ByteArrayOutputStream();
                PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx")).resultsRoot(results)
                        .timeout(Duration.ofMinutes(5)).jvmArgs(List.of("-Xms256m", "-Xmx512m")).dashboard(false)
                        .remoteDir(SlavesOfTheirOwn.keystoreDir())
                        .remoteHosts(List.of(frozen.address().toString(), other.address().toString()))
                        // one reader a slave, 1 ms between its GETs: the other slave's load must last past the
                        // stall's detection, and its every row is judged, not its volume (two readers at full speed
                        // took both cores for 15 s, and one took what the other test JVMs needed)
                        .property("profiles", "500").property("threads", "1").property("think_ms", "1")
                        .property("duration", "15");
                PlanRunner.Outcome outcome;
                try {
                    outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
                } finally {
                    freezer.join(Duration.ofMinutes(1).toMillis());
                    Signals.send(frozen.pid(), "CONT");
                }
                String said = console.toString(StandardCharsets.UTF_8);

                assertEquals(Ending.LOAD_INCOMPLETE, outcome.ending(), outcome.problem() + "\n" + said);
                // the time into the run is told from the first sample the master holds: a slave frozen within its
                // first second can fall silent before the other slave's first sample (its load started later on a
                // busy machine), and the verdict then gives the time of day alone
                assertTrue(outcome.problem().matches("(?s)the load did not run as planned:\n  slave "
                        + java.util.regex.Pattern.quote(frozen.address().toString()) + " stalled at \\d\\d:\\d\\d:\\d\\d"
                        + "( \\(\\d+(\\.\\d)? s into the run\\))?: silent for .*; the run ended without it"), outcome.problem());
                assertFalse(outcome.timedOut(), "the master was not left waiting for the frozen slave");
                assertTrue(said.contains("dsload: slave " + frozen.address() + " stalled"), said);
                // a frozen slave accepts connections and answers nothing: asking it for its recordings would hold the
                // runner for the fetch's read timeout, a minute
                assertTrue(said.contains("dsload: the recordings and server gauges of slave " + frozen.address()
                        + " were not fetched: it stalled during the run."), said);

                SlaveRoster roster = SlaveRoster.read(outcome.dir()).orElseThrow();
                assertEquals(List.of(frozen.address().toString()),
                        roster.in(SlaveRoster.State.STALLED).stream().map(SlaveRoster.Entry::address).toList());
                assertEquals(List.of(other.address().toString()),
                        roster.in(SlaveRoster.State.USED).stream().map(SlaveRoster.Entry::address).toList());
                String text = Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8);
                assertTrue(text.contains("Stalled: " + frozen.address() + " at "), text);
                assertTrue(text.lines().anyMatch(l -> l.startsWith(frozen.address() + " ") && l.contains(" stalled ")), text);
                long otherGets = PlanRuns.samples(outcome.jtl()).stream().filter(s -> s.label().equals("GET profile")
                        && s.threadName().startsWith(other.address() + "-")).count();
                assertEquals(RedisCalls.of(forOther, "GET"), otherGets, "every GET of the other slave has its row");
            }
        }
    }
}
