package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
                + " is above the limit 1%\",\"advice\":\"more in flight\"},\"steps\":[{\"step\":1,\"rate\":1000,"
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
    void theChartIsAPng() throws Exception {
        Path png = FindMaxReport.chart("rate", STEPS, dir.resolve(FindMaxReport.CHART));
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 1000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G');
    }
}
