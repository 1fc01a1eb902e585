package org.dsload.zookeeper;

import static org.dsload.zookeeper.ZooKeeperFixture.connection;
import static org.dsload.zookeeper.ZooKeeperFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.dsload.process.Deadline;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.testing.JMeterRuntime;
import org.dsload.zookeeper.report.ZooKeeperServerSection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** A real 3-node ZooKeeper ensemble losing members under load. */
@Timeout(180)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperEnsembleIT {
    private static EmbeddedZooKeeper ensemble;
    private static Path runDir;

    @BeforeAll
    static void start() throws Exception {
        ensemble = EmbeddedZooKeeper.ensemble(3);
        runDir = Files.createDirectories(Checkout.target().resolve("test-results/zk-ensemble-" + System.nanoTime()));
        JMeterRuntime.init();
        JMeterUtils.setProperty(RunProperties.RUN_DIR, runDir.toString());
    }

    @AfterAll
    static void stop() {
        JMeterUtils.getJMeterProperties().remove(RunProperties.RUN_DIR);
        ensemble.close();
    }

    private static ZooKeeperConnection ensembleConnection() {
        ZooKeeperConnection c = connection("zk", ensemble.connectString());
        c.setConnectionTimeout("1000");
        c.setRequestTimeout("2000");
        c.setSessionTimeout("20000");
        c.setRetryPolicy("n-times");
        c.setRetries("3");
        c.setRetrySleep("500");
        return c;
    }

    @Test
    @Order(1)
    void aStoppedMemberKeepsTheTestRunningOnTheOthers() throws Exception {
        JMeterRuntime.freshVariables();
        ZooKeeperConnection connection = ensembleConnection();
        connection.setRecordGauges("true");
        connection.testStarted();
        try {
            ZooKeeperSampler create = sampler("zk", "create", "/ensemble");
            create.setAcceptedCodes("NODEEXISTS");
            assertTrue(create.sample(null).isSuccessful());
            ZooKeeperSampler set = sampler("zk", "set", "/ensemble");
            ZooKeeperSampler get = sampler("zk", "get", "/ensemble");
            for (int i = 0; i < 20; i++) {
                assertTrue(set.sample(null).isSuccessful() && get.sample(null).isSuccessful(), "before the fault");
            }
            EmbeddedZooKeeper.Node leader = ensemble.leader();
            ensemble.kill(leader);
            List<SampleResult> after = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            int consecutiveOk = 0;
            while (consecutiveOk < 50 && System.nanoTime() < deadline) {
                SampleResult r = (after.size() % 2 == 0 ? set : get).sample(null);
                after.add(r);
                consecutiveOk = r.isSuccessful() ? consecutiveOk + 1 : 0;
            }
            assertEquals(50, consecutiveOk, "the two remaining members serve again: "
                    + after.stream().filter(r -> !r.isSuccessful()).map(r -> r.getResponseCode() + " "
                    + r.getResponseMessage()).distinct().limit(3).toList());
            for (SampleResult r : after) {
                if (!r.isSuccessful()) {
                    assertTrue(List.of("CONNECTIONLOSS", "REQUESTTIMEOUT", "SESSIONMOVED").contains(r.getResponseCode()),
                            "a member going away shows as lost connections only: " + r.getResponseCode() + " "
                                    + r.getResponseMessage());
                }
            }
            // the poller writes once a second: wait for its lines, within a deadline
            Path file = runDir.resolve("zk-mntr.tsv");
            String unreachable = "\t" + leader.address() + "\tunreachable\t";
            Deadline.await(() -> lines(file).stream().anyMatch(l -> l.contains(unreachable))
                    && lines(file).stream().anyMatch(l -> l.contains("\tleader\t")), Duration.ofSeconds(20),
                    Duration.ofMillis(100));
            List<String> gauges = lines(file);
            assertTrue(gauges.stream().anyMatch(l -> l.contains(unreachable)),
                    "the gauges show the killed member as unreachable: " + gauges);
            assertTrue(gauges.stream().anyMatch(l -> l.contains("\tleader\t")), "and a leader among the others");
            String section = new ZooKeeperServerSection().render(runDir, null).orElseThrow();
            assertTrue(section.matches("(?s).*\\Q" + leader.address() + "\\E was unreachable from "
                    + "\\d\\d:\\d\\d:\\d\\d to \\d\\d:\\d\\d:\\d\\d \\(\\d+ polls?\\).*"), section);
            assertFalse(section.matches("(?s).*\\s-\\d+-\\d+\\s.*"), "no range reads as '-1-1': " + section);
            ensemble.restart(leader);
        } finally {
            connection.testEnded();
        }
    }

    @Test
    @Order(2)
    void theWholeEnsembleDownGivesConnectionLossWithinTheTimeoutsThenFailsAtOnceOnceTheSessionIsLost()
            throws Exception {
        JMeterRuntime.freshVariables();
        ZooKeeperConnection connection = ensembleConnection();
        connection.setSessionTimeout("6000");
        connection.testStarted();
        try {
            ZooKeeperSampler get = sampler("zk", "get", "/");
            assertTrue(get.sample(null).isSuccessful());
            long killed = System.nanoTime();
            for (EmbeddedZooKeeper.Node node : ensemble.nodes()) {
                ensemble.kill(node);
            }
            // connection 1000 + request 2000 per try, 4 tries, 3 sleeps of 500: about 13.5 s at most.
            long started = System.nanoTime();
            SampleResult first = get.sample(null);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            long sinceKilled = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertFalse(first.isSuccessful());
            if (first.getResponseCode().equals("SESSIONEXPIRED")) {
                // on a busy machine the tries can outlast the session timeout: the client then gives the
                // session up, which is right only once 6 s have passed since the members went away
                assertTrue(sinceKilled >= 6000, "the session was given up " + sinceKilled + " ms after the "
                        + "members were killed, before its timeout of 6 s: " + first.getResponseMessage());
            } else {
                // the client fails a request it could not send as a lost connection, or as a timed-out request
                // when its request timeout runs out before it gives up reconnecting: on a busy machine either
                // comes first (a member's loss and a killed store in DeadStoreIT are judged the same way)
                assertTrue(List.of("CONNECTIONLOSS", "REQUESTTIMEOUT").contains(first.getResponseCode()),
                        first.getResponseCode() + " " + first.getResponseMessage());
                assertTrue(first.getResponseMessage().contains("at most about"), first.getResponseMessage());
            }
            assertTrue(millis < 45_000, "failed within the timeouts (with a wide margin), took " + millis + " ms");
            assertEquals(0, first.getBytesAsLong(), "no reply came: nothing received, whatever the message");

            // Past the session timeout of 6 s the session is lost: from then on every sample fails at once
            // instead of waiting out the timeouts and retries again.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            SampleResult r = first;
            while (!r.getResponseMessage().contains("samples fail at once") && System.nanoTime() < deadline) {
                r = get.sample(null);
            }
            assertTrue(r.getResponseMessage().contains("a session was lost at"), r.getResponseMessage());
            // Each sample fails at once, and the thread waits out a back-off (10 ms doubling to 1 s)
            // before the next: a few failed samples a second, not as many as the machine can fail.
            long quick = System.nanoTime();
            int failed = 0;
            long slowest = 0;
            while (System.nanoTime() - quick < TimeUnit.SECONDS.toNanos(3)) {
                r = get.sample(null);
                assertEquals("CONNECTIONLOSS", r.getResponseCode(), r.getResponseMessage());
                assertTrue(r.getResponseMessage().contains("samples fail at once"), r.getResponseMessage());
                slowest = Math.max(slowest, r.getTime());
                failed++;
            }
            assertEquals(0, r.getBytesAsLong(), "a sample failed at once received nothing");
            assertEquals(0, r.getSentBytes(), "and sent nothing");
            System.out.println("ensemble down: the first sample failed after " + millis + " ms; once the session was "
                    + "lost, " + failed + " samples failed in 3 s, the slowest in " + slowest + " ms");
            assertTrue(slowest < 1000, "each failed at once, the slowest in " + slowest + " ms; one try alone may wait "
                    + "the connection timeout of 1000 ms");
            assertTrue(failed >= 3 && failed <= 12, failed + " samples in 3 s: paced by the back-off");

            // each restart waits until its node serves, which takes a quorum: start them together
            java.util.concurrent.ExecutorService starters = java.util.concurrent.Executors.newFixedThreadPool(3);
            try {
                List<java.util.concurrent.Future<?>> restarts = new ArrayList<>();
                for (EmbeddedZooKeeper.Node node : ensemble.nodes()) {
                    restarts.add(starters.submit(() -> ensemble.restart(node)));
                }
                for (java.util.concurrent.Future<?> restart : restarts) {
                    restart.get(90, TimeUnit.SECONDS);
                }
            } finally {
                starters.shutdownNow();
            }
            long back = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            do {
                r = get.sample(null);
            } while (!r.isSuccessful() && System.nanoTime() < back);
            assertTrue(r.isSuccessful(), "samples succeed again once the ensemble is back: " + r.getResponseMessage());
        } finally {
            long closing = System.nanoTime();
            connection.testEnded();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);
            assertTrue(millis < 45_000, "closing with no server left is bounded too, took " + millis + " ms");
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
