package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.ProcFs;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.HostPrivileges;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The command driver's default templates on this host, run through a prefix the way
 * {@code ssh {host}} would run them on a node's host ({@code env DSLOAD_NODE={host} sh -c}: the
 * prefix's words, then the rendered command as one argument): iptables rules scoped to one
 * redis-server's port, a stress-ng CPU hog. Needs root and iptables, stress-ng installed.
 */
@Timeout(120)
@Tag("alone") // measures a hog's share of a core: no other test JVM beside it
class CommandDriverIT {
    private static final CommandDriver DRIVER = new CommandDriver();
    private static EmbeddedRedis redis;
    private static Target node;
    private static FaultSpec.Settings settings;

    @BeforeAll
    static void start() {
        HostPrivileges.require("iptables and stress-ng faults", "iptables", "stress-ng");
        redis = EmbeddedRedis.start();
        node = new Target("redis", Map.of("host", redis.host(), "port", Integer.toString(redis.port())));
        settings = new FaultSpec.Settings("", "env DSLOAD_NODE={host} sh -c", Map.of(), 30_000, 60_000);
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    private static String ping(int timeoutMillis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port(), timeoutMillis)) {
            return jedis.ping();
        }
    }

    private static String rules() throws Exception {
        return Commands.run(List.of("iptables", "-S", "INPUT"), Duration.ofSeconds(10)).output();
    }

    @Test
    void freezeByIptablesDropsTheNodesTrafficUntilTheRuleIsDeleted() throws Exception {
        FaultSpec spec = Faults.spec(FaultKind.FREEZE, node, Map.of(), settings);
        FaultDriver.Applied applied = DRIVER.apply(spec);
        try {
            assertTrue(applied.message().startsWith("ran: env DSLOAD_NODE=127.0.0.1 sh -c 'iptables -I INPUT"),
                    applied.message());
            assertTrue(rules().contains("dsload-" + spec.id()), rules());
            assertThrows(JedisConnectionException.class, () -> ping(800), "nothing reaches the node");
        } finally {
            DRIVER.revert(applied.record());
        }
        assertFalse(rules().contains("dsload-" + spec.id()), "the rule is gone: " + rules());
        assertEquals("PONG", ping(2000));
    }

    @Test
    void lossByIptablesStatisticDropsThatShareOfPackets() throws Exception {
        FaultSpec spec = Faults.spec(FaultKind.LOSS, node, Map.of("loss", "100%"), settings);
        FaultDriver.Applied applied = DRIVER.apply(spec);
        try {
            assertTrue(rules().contains("--probability 1"), rules());
            assertThrows(JedisConnectionException.class, () -> ping(800), "every packet to the node is dropped");
        } finally {
            DRIVER.revert(applied.record());
        }
        assertFalse(rules().contains("dsload-" + spec.id()), rules());
        assertEquals("PONG", ping(2000));
    }

    @Test
    void cpuHogByStressNgRunsUntilItsHandleIsKilled() throws Exception {
        FaultSpec spec = Faults.spec(FaultKind.CPU, node, Map.of("percent", "50%"), settings);
        FaultDriver.Applied applied = DRIVER.apply(spec);
        long handle = Long.parseLong(applied.record().require("command.revert").replace("kill ", "").trim());
        ProcessHandle stress = ProcessHandle.of(handle).orElseThrow();
        try {
            int cpus = Runtime.getRuntime().availableProcessors();
            // stress-ng --cpu 0 starts one worker per CPU
            assertTrue(Deadline.await(() -> stress.descendants().count() >= cpus, Duration.ofSeconds(10),
                    Duration.ofMillis(20)), "stress-ng runs a worker per CPU: " + stress.descendants().toList());
            List<ProcessHandle> workers = stress.descendants().toList();
            long ticksBefore = ticks(workers);
            Thread.sleep(2000); // the window the workers' CPU time is measured over
            double cores = (ticks(workers) - ticksBefore) / 100.0 / 2.0;
            double share = cores / workers.size();
            System.out.printf("dsload: stress-ng --cpu-load 50 used %.2f cores in %d workers: %.2f of a core each%n",
                    cores, workers.size(), share);
            // measured on 2 cores: 0.50 of a core each when quiet, 0.26-0.36 at a load average of 3 or with
            // other servers of the test run busy; a hog that ignores --cpu-load burns a whole core
            assertTrue(share > 0.15 && share < 0.65, "each worker burns about half a core: " + share);
        } finally {
            DRIVER.revert(applied.record());
        }
        stress.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(stress.isAlive(), "stress-ng ended");
    }

    private static long ticks(List<ProcessHandle> processes) {
        long sum = 0;
        for (ProcessHandle p : processes) {
            sum += Math.max(0, ProcFs.cpuTicks(p.pid(), false)); // -1: ended
        }
        return sum;
    }
}
