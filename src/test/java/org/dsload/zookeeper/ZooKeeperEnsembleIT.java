package org.dsload.zookeeper;

import static org.dsload.zookeeper.ZooKeeperFixture.connection;
import static org.dsload.zookeeper.ZooKeeperFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.testing.JMeterRuntime;
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
        JMeterUtils.setProperty(PlanRunner.RUN_DIR_PROPERTY, runDir.toString());
    }

    @AfterAll
    static void stop() {
        JMeterUtils.getJMeterProperties().remove(PlanRunner.RUN_DIR_PROPERTY);
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
            Thread.sleep(1500);
            List<String> gauges = Files.readAllLines(runDir.resolve("zk-mntr.tsv"), StandardCharsets.UTF_8);
            assertTrue(gauges.stream().anyMatch(l -> l.contains("\t" + leader.address() + "\tunreachable\t")),
                    "the gauges show the killed member as unreachable");
            assertTrue(gauges.stream().anyMatch(l -> l.contains("\tleader\t")), "and a leader among the others");
            ensemble.restart(leader);
        } finally {
            connection.testEnded();
        }
    }

    @Test
    @Order(2)
    void theWholeEnsembleDownGivesConnectionLossWithinTheTimeoutsAndNoHungThread() throws Exception {
        JMeterRuntime.freshVariables();
        ZooKeeperConnection connection = ensembleConnection();
        connection.testStarted();
        try {
            ZooKeeperSampler get = sampler("zk", "get", "/");
            assertTrue(get.sample(null).isSuccessful());
            for (EmbeddedZooKeeper.Node node : ensemble.nodes()) {
                ensemble.kill(node);
            }
            // connection 1000 + request 2000 per try, 4 tries, 3 sleeps of 500: about 13.5 s at most.
            for (int i = 0; i < 2; i++) {
                long started = System.nanoTime();
                SampleResult r = get.sample(null);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertFalse(r.isSuccessful());
                assertEquals("CONNECTIONLOSS", r.getResponseCode(), r.getResponseMessage());
                assertTrue(r.getResponseMessage().contains("at most about"), r.getResponseMessage());
                assertTrue(millis < 45_000, "failed within the timeouts (with a wide margin), took " + millis + " ms");
            }
        } finally {
            long closing = System.nanoTime();
            connection.testEnded();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);
            assertTrue(millis < 45_000, "closing with no server left is bounded too, took " + millis + " ms");
        }
    }
}
