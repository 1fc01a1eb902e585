package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** find-max's files: the JSON's shape, the table, the chart. */
class FindMaxReportTest {
    @TempDir
    Path dir;

    private static final List<FindMaxReport.Step> STEPS = List.of(
            new FindMaxReport.Step(1, 1000, 999.5, 0, 80, 150, 400, 0, 10_000, 0.31, true, null, false, "results/s1"),
            new FindMaxReport.Step(2, 2000, 1500.25, 0.25, 90, 200, 20_000, 0.001, 15_000, 0.5, false,
                    "late arrivals 25% (...) is above the limit 1%", true, "results/s2"));

    @Test
    void theJsonHasTheAnswerAndEveryStep() {
        FindMaxReport.Answer answer = new FindMaxReport.Answer(1000, FindMaxReport.GENERATOR,
                "late arrivals 25% (...) is above the limit 1%", "more in flight");
        String json = FindMaxReport.json(answer, STEPS);
        assertTrue(json.startsWith("{\"answer\":{\"rate\":1000,\"limitedBy\":\"generator\",\"broke\":\"late arrivals 25% (...)"
                + " is above the limit 1%\",\"advice\":\"more in flight\",\"stepsKeptAtRate\":1},\"steps\":[{\"step\":1,\"rate\":1000,"
                + "\"achievedRate\":999.5,\"late\":0,\"p50Ms\":0.08,\"p90Ms\":0.15,\"p99Ms\":0.4,\"errorRatio\":0,"), json);
        assertTrue(json.contains("\"kept\":true,\"broke\":null"), json);
        assertTrue(json.contains("{\"step\":2,\"rate\":2000,\"achievedRate\":1500.25,\"late\":0.25,\"p50Ms\":0.09,"
                + "\"p90Ms\":0.2,\"p99Ms\":20,\"errorRatio\":0.001,\"requests\":15000,\"generatorCpuPeak\":0.5,\"kept\":false,"
                + "\"broke\":\"late arrivals 25% (...) is above the limit 1%\",\"generatorBound\":true,\"run\":\"results/s2\"}]}"),
                json);
        String none = FindMaxReport.json(new FindMaxReport.Answer(Double.NaN, FindMaxReport.SERVER, "p99", null), STEPS);
        assertTrue(none.startsWith("{\"answer\":{\"rate\":null,\"limitedBy\":\"server\",\"broke\":\"p99\"},"), none);
    }

    @Test
    void theTableHasAStepALineAndSaysWhoseLimitItIs() {
        FindMaxReport.Answer answer = new FindMaxReport.Answer(1000, FindMaxReport.GENERATOR, "late arrivals 25%", "more in flight");
        String text = FindMaxReport.text("plan.jmx", "rate", answer, STEPS);
        assertEquals(2, text.lines().filter(l -> l.matches(" +[12] .*")).count(), text);
        assertTrue(text.contains("BROKEN: late arrivals 25% (...) is above the limit 1% [generator]"), text);
        assertTrue(text.contains("Answer: rate=1000 is the GENERATOR's limit, not the server's: above it late arrivals 25%."
                + " more in flight"), text);
        String server = FindMaxReport.answerLine("rate", new FindMaxReport.Answer(1000, FindMaxReport.SERVER, "p99 20ms", null));
        assertEquals("Answer: rate=1000 is the highest rate that kept the limits; above it the server broke them: p99 20ms.",
                server);
        assertEquals("No answer: no step ran to its end.", FindMaxReport.answerLine("rate",
                new FindMaxReport.Answer(Double.NaN, null, null, null)));
    }

    @Test
    void anAnswerKeptInARepeatOfItsStepSaysSo() {
        List<FindMaxReport.Step> steps = List.of(STEPS.get(0), STEPS.get(1),
                new FindMaxReport.Step(3, 1000, 1000.1, 0, 80, 150, 410, 0, 10_000, 0.3, true, null, false, "results/s3"));
        FindMaxReport.Answer answer = new FindMaxReport.Answer(1000, FindMaxReport.SERVER, "p99 20ms", null);
        String text = FindMaxReport.text("plan.jmx", "rate", answer, steps);
        assertTrue(text.endsWith("It kept them in each of its 2 steps at 1000 (the answer's step repeated before it was"
                + " given).\n"), text);
        assertTrue(FindMaxReport.json(answer, steps).contains("\"stepsKeptAtRate\":2}"), FindMaxReport.json(answer, steps));
        assertTrue(!FindMaxReport.text("plan.jmx", "rate", answer, STEPS).contains("It kept them"), "one step: no line");

        // the first rate kept them, then broke them in its repeat: no answer, and not for the first step's sake
        List<FindMaxReport.Step> repeatBroke = List.of(STEPS.get(0), STEPS.get(1),
                new FindMaxReport.Step(3, 1000, 990, 0, 80, 150, 30_000, 0, 9_900, 0.3, false, "p99 30ms", false, "s3"));
        String none = FindMaxReport.text("plan.jmx", "rate", new FindMaxReport.Answer(Double.NaN, FindMaxReport.SERVER,
                "p99 30ms", null), repeatBroke);
        assertTrue(none.contains("No answer: the lowest rate broke the limits in a repeat of its step: p99 30ms."), none);
    }

    @Test
    void theServerGaugesOfTheStepsAreColumnsOfTheTableAndFieldsOfTheJson() {
        List<FindMaxReport.Step> steps = List.of(
                new FindMaxReport.Step(1, 1000, 999.5, 0, 80, 150, 400, 0, 10_000, 0.31, true, null, false, "results/s1",
                        Map.of("zk_outstanding_requests", 3.0)),
                new FindMaxReport.Step(2, 2000, 1999, 0, 90, 200, 900, 0, 20_000, 0.4, false,
                        "server gauge zk_outstanding_requests peaked at 140.5 (...) is above the limit 100", false,
                        "results/s2", Map.of("zk_outstanding_requests", 140.5)),
                new FindMaxReport.Step(3, 1500, 0, 0, 0, 0, 0, 1, 0, Double.NaN, false, "the run: failed", false, "results/s3"));
        FindMaxReport.Answer answer = new FindMaxReport.Answer(1000, FindMaxReport.SERVER, steps.get(1).broke(), null);
        String text = FindMaxReport.text("plan.jmx", "rate", answer, steps);
        assertTrue(text.contains("gen CPU zk_outstanding_requests  limits"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches(" +1 .* 3  kept")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches(" +2 .* 140.50  BROKEN: server gauge .*")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches(" +3 .* -  BROKEN: the run: failed")), "a step without readings: " + text);
        String json = FindMaxReport.json(answer, steps);
        assertTrue(json.contains("\"run\":\"results/s2\",\"gauges\":{\"zk_outstanding_requests\":140.5}}"), json);
        assertTrue(json.contains("\"run\":\"results/s3\"}"), "no gauges, no field: " + json);
    }

    @Test
    void theChartIsAPng() throws Exception {
        Path png = FindMaxReport.chart("rate", STEPS, dir.resolve(FindMaxReport.CHART));
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 1000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G');
    }
}
