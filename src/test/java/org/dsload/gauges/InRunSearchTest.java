package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.report.FindMaxReport;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search within one test, driven as an element drives it: real samples offered from another
 * thread while the steps run, and a server gauge that follows the count set at each step (3 per unit,
 * as ZooKeeper's ephemeral executors of a domain), written into the run folder as a recorder would.
 */
@Timeout(60)
class InRunSearchTest {
    @TempDir
    Path run;

    private static SampleEvent sample(String label, boolean ok) {
        SampleResult r = SampleResult.createTestSample(System.currentTimeMillis(), System.currentTimeMillis() + 1);
        r.setSampleLabel(label);
        r.setSuccessful(ok);
        r.setResponseCode(ok ? "OK" : "ERR");
        return new SampleEvent(r, "group");
    }

    private void reading(double value) {
        try {
            Path file = run.resolve("zk-mntr.tsv");
            if (!Files.exists(file)) {
                Files.writeString(file, "epoch_ms\tserver\tzk_ephemerals_count\n", StandardCharsets.UTF_8);
            }
            Files.writeString(file, (System.currentTimeMillis() + 50) + "\t127.0.0.1:2181\t" + (long) value + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aGaugeLimitBisectsTheCountToTheHighestKeptAndTheFilesSayIt() throws Exception {
        JMeterRuntime.init();
        RateSearchRule rule = new RateSearchRule(10, 10, 0, true).upTo(40).within(5);
        InRunSearch search = new InRunSearch(rule, new InRunSearch.Plan(new Limits().maxErrorRatio(0.5),
                List.of(GaugeLimit.parse("zk_ephemerals_count=45")), 0, 300, java.util.regex.Pattern.compile("job.*"),
                run, false));
        List<Double> set = new ArrayList<>();
        AtomicBoolean over = new AtomicBoolean();
        Thread feeder = new Thread(() -> {
            long end = System.currentTimeMillis() + 30_000;
            while (!over.get() && System.currentTimeMillis() < end) {
                search.offer(sample("job start", true));
                search.offer(sample("other", false)); // a label not judged
                search.offer(sample("job (warm-up)", false)); // nor the warm-up's
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        feeder.start();
        try {
            search.run((index, units) -> {
                set.add(units);
                reading(units * 3);
            }, "active_domains", line -> { });
        } finally {
            over.set(true);
            feeder.join();
        }
        assertEquals(List.of(10.0, 20.0, 15.0), set, "doubled from 10, broken at 20 (60 > 45), bisected to 15 (45)");
        assertTrue(search.done());
        FindMaxReport.Answer answer = search.answer();
        assertEquals(15, answer.rate());
        assertTrue(answer.broke().startsWith("server gauge zk_ephemerals_count peaked at 60"), answer.broke());
        List<FindMaxReport.Step> steps = search.steps();
        assertEquals(45.0, steps.get(2).gauges().get("zk_ephemerals_count"), "each step's own readings");
        assertTrue(steps.stream().allMatch(s -> s.errorRatio() == 0 && s.requests() > 0), steps.toString());

        String text = search.write(run, "this test", "active_domains", "domains", problem -> {
            throw new AssertionError(problem);
        });
        assertTrue(text.contains("Answer: active_domains=15 (15 domains)"), text);
        String json = Files.readString(run.resolve(FindMaxReport.JSON));
        assertTrue(json.replace(" ", "").contains("\"unit\":\"domains\""), json);
        assertTrue(Files.size(run.resolve(FindMaxReport.CHART)) > 0, "the chart find-max draws");
        assertFalse(text.contains("The test ended before the search did"), text);
    }
}
