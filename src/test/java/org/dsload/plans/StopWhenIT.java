package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.cli.ExitCodes;
import org.dsload.report.Summary;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code dsload run --stop-when} as a user runs it: a rate plan against a redis-server that is frozen
 * (SIGSTOP) once the load reached it. Its requests time out after the plan's socket timeout (1 s),
 * which breaks the latency condition (500 ms: no hiccup of a busy machine breaks it); the engine ends the test long before its planned end, and the run
 * says which condition broke, when, with the value measured, and exits with 7.
 */
@Timeout(180)
class StopWhenIT {
    private static final int PLANNED_SECONDS = 40;

    @Test
    void aFrozenStoreBreaksTheLatencyConditionAndEndsTheRunEarly() throws Exception {
        Path results = Files.createDirectories(Checkout.target().resolve("test-results").resolve("stop-when-"
                + System.nanoTime()));
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             FaultedRun run = FaultedRun.start(results, "redis-get-rate.jmx", "GET", 10, "-Jhosts=" + redis.address(),
                     "-Jduration=" + PLANNED_SECONDS, "-Jrate=200", "-Jwarmup=0", "-Jsocket_timeout=1000",
                     "-Jserver_gauges=false", "--give-up-after", "0", "--stop-when", "p99>500ms",
                     "-Jdsload.stop_when=errors>50% for 3s")) {
            run.awaitLoad(200);
            redis.pause();
            try {
                assertEquals(ExitCodes.LIMITS_BROKEN, run.exitCode(), run.output());
            } finally {
                redis.resume();
            }
            String summary = run.summary();
            Matcher reason = Pattern.compile("Run STOPPED, limits broken: the run broke its limits and was stopped early:\n"
                    + "  master: 'p99>500ms' broken: p99 (\\S+) \\(since \\d\\d:\\d\\d:\\d\\d\\), so the test stopped early at "
                    + "\\d\\d:\\d\\d:\\d\\d \\(dsload.stop_when\\)").matcher(summary);
            assertTrue(reason.find(), summary);
            // requests that timed out after the socket timeout (1 s) broke it, not a hiccup of a busy machine
            assertTrue(reason.group(1).matches("\\d+(\\.\\d+)?s"), "a p99 of the timeouts, a second or more: "
                    + reason.group(1));
            assertTrue(run.output().contains("dsload: 'p99>500ms' broken: p99 "), "the console says it when it happens: "
                    + run.output());
            Path jtl;
            try (var files = Files.list(run.dir())) {
                jtl = files.filter(f -> f.toString().endsWith(".jtl")).findFirst().orElseThrow();
            }
            Summary figures = Summary.of(jtl);
            long ranMillis = figures.total().lastEnd() - figures.total().firstStart();
            assertTrue(ranMillis < PLANNED_SECONDS * 1000L, "ended before its planned " + PLANNED_SECONDS + " s: "
                    + ranMillis + " ms");
            System.out.println("dsload: stop-when ended the run after " + ranMillis + " ms of requests: "
                    + reason.group());
        }
    }
}
