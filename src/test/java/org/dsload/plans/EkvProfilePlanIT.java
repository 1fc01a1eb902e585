package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;

/** test-plans/ekv-profile-get.jmx, headless, against a real redis-server. */
@Timeout(300)
class EkvProfilePlanIT {

    @Test
    void loadsEveryProfileThenReadsThemAllSuccessfully() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of(
                    "hosts", redis.address(), "profiles", "2000", "threads", "4", "duration", "5"),
                    Duration.ofMinutes(3));
            assertTrue(result.outcome().ok(), result.outcome().problem() + "\n" + result.console());

            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            assertEquals(Set.of("SET profile", "GET profile"),
                    samples.stream().map(JtlSample::label).collect(Collectors.toSet()));
            List<JtlSample> loads = samples.stream().filter(s -> s.label().equals("SET profile")).toList();
            assertEquals(20, loads.size(), "2000 profiles in pipelines of 100");
            assertEquals(2000, loads.stream().mapToInt(JtlSample::sampleCount).sum());
            assertTrue(samples.stream().allMatch(JtlSample::success), "every sample succeeds");
            assertTrue(samples.stream().allMatch(JtlSample::timedInMicros), "every sample carries its µs timing");
            Set<String> threads = samples.stream().filter(s -> s.label().equals("GET profile"))
                    .map(JtlSample::threadName).collect(Collectors.toSet());
            assertEquals(4, threads.size(), "all four readers sampled: " + threads);
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                assertEquals(2000, jedis.dbSize());
            }

            LabelStats get = result.outcome().summary().label("GET profile");
            long gets = samples.stream().filter(s -> s.label().equals("GET profile")).count();
            assertEquals(gets, get.requests(), "the summary counts every sample in the file");
            assertEquals(1.0, get.successRatio());
            String text = Files.readString(result.outcome().dir().resolve("summary.txt"), StandardCharsets.UTF_8);
            assertTrue(text.contains("== GET profile =="), text);
            assertTrue(text.contains("Status Codes  [code:count]                      OK:" + gets), text);
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("summary.json")));
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("dashboard/index.html")), "HTML dashboard");
            assertTrue(Files.isRegularFile(result.outcome().dir().resolve("jmeter.log")));
        }
    }

    @Test
    void aMalformedPropertyStopsTheRunAtOnceNamingTheField() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            long started = System.nanoTime();
            PlanRuns.Result result = PlanRuns.run("ekv-profile-get.jmx", Map.of(
                    "hosts", redis.address(), "socket_timeout", "2s", "duration", "120"), Duration.ofMinutes(2));
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            assertTrue(seconds < 60, "the run stops instead of running its 120 s, took " + seconds + " s");
            assertTrue(result.console().contains("dsload: dsload Redis Connection 'ekv connection': field "
                    + "'Socket timeout (ms)' must be a whole number of at least 1, got '2s'"), result.console());
            List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
            assertFalse(samples.isEmpty());
            JtlSample first = samples.get(0);
            assertFalse(first.success());
            assertEquals("CONFIG", first.responseCode());
            assertTrue(first.responseMessage().contains("field 'Socket timeout (ms)'"), first.responseMessage());
        }
    }
}
