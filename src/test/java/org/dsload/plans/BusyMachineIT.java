package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.dsload.process.ProcessTree;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A light load from a generator whose machine other processes keep busy: the machine's CPU is
 * near 100 %, the generator's own is small. The summary must say whose CPU it was, and not call
 * the generator saturated.
 */
@Timeout(300)
@Tag("alone") // keeps every core busy on purpose: no other test JVM beside it
class BusyMachineIT {

    @Test
    void aMachineBusyWithOtherProcessesIsNoSaturatedGenerator() throws Exception {
        List<Process> hogs = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            // one busy loop per core, at the lowest priority: the machine is busy, the generator still gets its share
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                hogs.add(new ProcessBuilder("nice", "-n", "19", "sh", "-c", "while :; do :; done").start());
            }
            PlanRuns.Result result = PlanRuns.run("redis-get-rate.jmx", Map.of("hosts", redis.address(), "rate", "50",
                    "threads", "2", "duration", "8", "warmup", "0", "server_gauges", "false"), Duration.ofMinutes(3), false);
            String summary = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());
            assertTrue(summary.contains("Note: generator master's machine was busy for"), summary);
            assertTrue(summary.contains("other processes on the machine"), summary);
            assertFalse(summary.contains("saturated"), summary);
        } finally {
            hogs.forEach(h -> ProcessTree.kill(h.toHandle()));
        }
    }
}
