package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.dsload.report.FindMaxReport;
import org.dsload.report.JtlSample;
import org.dsload.report.RateSearchRule;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * dsload Find Max Rate in one test, against one embedded redis-server: one thread with one GET in
 * flight (the generator's limit, tens of thousands a second at most) and a limit of 50 % late arrivals
 * that must break below 128,000/s (on one place nearly every arrival is late beyond its rate; the share is
 * this generous because the test shares 2 cores with other work, whose stalls of a few hundred ms made 23 %
 * of 1,000/s late). The element steps -Jrate by the search rule, stops the test with its
 * answer and writes find-max.json into the run folder.
 */
@Timeout(180)
@Tag("alone") // judges late arrivals: no other test JVM beside it
class FindMaxRateIT {
    private static EmbeddedRedis redis;

    @BeforeAll
    static void start() {
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void theSearchFollowsTheRuleStopsTheTestAndAnswersBelowTheGeneratorsLimit() throws Exception {
        long duration = 150;
        PlanRuns.Result result = PlanRuns.run(Checkout.basedir().resolve("src/test/resources/org/dsload/plans/find-max-rate.jmx"),
                Map.of("hosts", redis.address(), "server_gauges", "false", "threads", "1", "in_flight", "1",
                        "duration", Long.toString(duration), "start", "500", "warmup", "5", "max_steps", "9",
                        "max_latency_ms", "50", "max_late_pct", "50"),
                Duration.ofSeconds(duration + 30), false);
        String console = result.console();
        Path dir = result.outcome().dir();
        Path json = dir.resolve(FindMaxReport.JSON);
        assertTrue(Files.isRegularFile(json), "find-max.json in the run folder: " + console);
        JsonNode found = new ObjectMapper().readTree(Files.readString(json, StandardCharsets.UTF_8));
        JsonNode steps = found.get("steps");
        JsonNode answer = found.get("answer");

        // the rates follow the one rule, step by step, and the search ended by it (not by the test's end)
        RateSearchRule rule = new RateSearchRule(500, 9, 0.1);
        List<Double> kept = new ArrayList<>();
        for (JsonNode step : steps) {
            assertFalse(rule.done(), "a step after the rule's end: " + found);
            assertEquals(rule.next(), step.get("rate").asDouble(), "step " + step.get("step") + " of " + found);
            boolean k = step.get("kept").asBoolean();
            rule.judged(new FindMaxReport.Step(step.get("step").asInt(), step.get("rate").asDouble(), 0, 0, 0, 0, 0, 0, 0,
                    Double.NaN, k, k ? null : step.get("broke").asText(), false, ""));
            if (k) {
                kept.add(step.get("rate").asDouble());
                // the new rate took effect at the step: what was sent in its window is its rate, not the previous one's
                double achieved = step.get("achievedRate").asDouble();
                assertTrue(achieved > step.get("rate").asDouble() * 0.9 && achieved < step.get("rate").asDouble() * 1.1,
                        "achieved " + achieved + " in " + step);
                assertTrue(step.get("late").asDouble() <= 0.5, step.toString());
            } else {
                assertFalse(step.get("broke").asText().isEmpty(), step.toString());
            }
        }
        assertTrue(rule.done(), "the search ran to its end: " + found + "\n" + console);

        // the element stopped the test: its samples end well before the thread group's duration
        List<JtlSample> samples = PlanRuns.samples(result.outcome().jtl());
        long first = samples.stream().mapToLong(JtlSample::start).min().orElseThrow();
        long last = samples.stream().mapToLong(JtlSample::start).max().orElseThrow();
        assertTrue(last - first < (duration - 30) * 1000, "samples over " + (last - first) + " ms of a " + duration + " s test");
        // a limit that must break did: from 500/s, 9 steps reach 128,000/s, out of reach of one place in flight
        assertFalse(answer.get("broke").isNull(), "a limit broke: " + found);
        if (answer.get("rate").isNull()) {
            // a machine too busy to keep even 500/s on time (others' load on shared cores): the first step broke,
            // and the search ended there, as the rule says
            assertEquals(1, steps.size(), found.toString());
            assertTrue(console.contains("dsload find-max: No answer: the first step already broke the limits"), console);
            System.out.println("dsload: Find Max Rate: even the first step broke the limits on this machine:\n" + found);
            return;
        }
        // the answer: the highest rate kept, below every rate broken
        double rate = answer.get("rate").asDouble();
        assertEquals(kept.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), rate, 0);
        assertTrue(rate >= 500 && rate < 128_000, "answer " + rate);
        for (JsonNode step : steps) {
            if (!step.get("kept").asBoolean()) {
                assertTrue(step.get("rate").asDouble() > rate, step.toString());
            }
        }
        assertTrue(console.contains("dsload find-max: Answer: rate=" + FindMaxReport.number(rate)), console);
        String text = Files.readString(dir.resolve(FindMaxReport.TEXT), StandardCharsets.UTF_8);
        assertTrue(text.contains("Answer: rate=" + FindMaxReport.number(rate)), text);

        System.out.println("dsload: Find Max Rate, 1 thread, 1 in flight, p99 <= 50 ms, late <= 50 %:\n" + text);
    }
}
