package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.dsload.core.format.RunFiles;
import org.dsload.redis.report.RedisServerSection;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Server gauges in a distributed run: each local slave reads the server into its own folder and
 * counts its own samplers; the summary adds them up and the cross-check stays exact.
 */
@Timeout(400)
class ServerGaugesDistributedIT {

    @Test
    void twoSlavesOnOneServerGiveOneExactCrossCheck() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            PlanRun run = new PlanRun(Checkout.jmeterHome(), PlanRuns.plan("ekv-profile-get.jmx"))
                    .resultsRoot(Checkout.target().resolve("test-results")).timeout(Duration.ofMinutes(4))
                    .jvmArgs(List.of("-Xms256m", "-Xmx512m")).dashboard(false).slaveHeap("256m")
                    .remoteDir(Checkout.target().resolve("rmi")).localSlaves(2)
                    .property("hosts", redis.address()).property("profiles", "1000").property("threads", "2")
                    // 1,000 GETs a reader, 4,000 in all: the cross-check is exact or not whatever the count
                    .property("duration", "4").property("loops", "1000");
            PlanRunner.Outcome outcome = new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
            assertTrue(outcome.ok(), outcome.problem() + "\n" + console.toString(StandardCharsets.UTF_8));
            Path dir = outcome.dir();

            List<Path> files = RunFiles.find(dir, RedisServerSection.NAME);
            assertEquals(2, files.size(), "each slave reads the server into its own folder: " + files);
            assertTrue(files.stream().allMatch(f -> f.startsWith(dir.resolve("slaves"))), files.toString());

            long commands = PlanRuns.samples(outcome.jtl()).stream().mapToLong(JtlSample::sampleCount).sum();
            String summary = Files.readString(dir.resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(summary.contains("Cross-check [dsload reported, server counted] " + commands + ", " + commands
                    + " (match) commands GET, SET"), summary);
            assertTrue(Files.exists(dir.resolve(RedisServerSection.CHART.png())));
        }
    }
}
