package org.dsload.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.jexl3.JexlBuilder;
import org.apache.commons.jexl3.JexlEngine;
import org.apache.commons.jexl3.MapContext;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.SearchByClass;
import org.dsload.core.format.RunProperties;
import org.dsload.process.Deadline;
import org.dsload.report.FindMaxReport;
import org.dsload.report.FindMaxReport.Step;
import org.dsload.testing.JMeterRuntime;
import org.dsload.zookeeper.report.CapacitySection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class CapacityStepsTest {
    @TempDir
    Path run;

    private static Step step(int index, double units, boolean kept) {
        return new Step(index, units, 10, 0, 1_000, 2_000, kept ? 30_000 : 900_000, 0, 120, 0.2, kept,
                kept ? null : "p99 900ms is above the limit 500ms", false, "");
    }

    @Test
    void theStepsInWordsEndWithTheCapacityTheSearchFound() {
        List<Step> steps = List.of(step(1, 5, true), step(2, 10, true), step(3, 20, false), step(4, 15, true));
        String text = CapacitySteps.capacityText(steps, new FindMaxReport.Answer(15, FindMaxReport.SERVER,
                steps.get(2).broke(), null), true, "domains");
        assertEquals("step 1: 5 domains, 120 samples, errors 0.00%, p99 30 ms: ok", text.lines().findFirst().orElseThrow());
        assertTrue(text.contains("step 3: 20 domains, 120 samples, errors 0.00%, p99 900 ms: FAILED (p99 900ms is above"),
                text);
        assertTrue(text.endsWith("capacity reached: 15 domains (step 3 with 20 domains failed: p99 900ms is above the"
                + " limit 500ms)\n"), text);
        List<Step> kept = List.of(step(1, 2, true), step(2, 4, true));
        assertTrue(CapacitySteps.capacityText(kept, new FindMaxReport.Answer(4, null, null, null), true, "domains")
                .contains("at least 4 domains: every step passed up to the maximum"));
        assertTrue(CapacitySteps.capacityText(List.of(step(1, 5, false)), new FindMaxReport.Answer(Double.NaN,
                FindMaxReport.SERVER, "p99", null), true, "domains").contains("no step passed: not even 5 domains"));
        assertTrue(CapacitySteps.capacityText(List.of(), new FindMaxReport.Answer(Double.NaN, null, null, null), false,
                "domains").contains("no step ran to its end"));
    }

    @Test
    void aPlanRunsItsThreadsForTheLongestSearchOrOneStep() {
        assertEquals(60, CapacitySteps.plannedSeconds(7, 5, 7, 60), "one count, as find-max runs it: one step");
        // 5, 10, 20 then at most two bisections to within 5: 5 steps
        assertEquals(CapacitySteps.START_SLACK_SECONDS + 5 * (60 + CapacitySteps.STEP_SLACK_SECONDS),
                CapacitySteps.plannedSeconds(5, 5, 20, 60));
    }

    /**
     * zk-scheduler-model.jmx gives its threads the longest search's length with __jexl3 (not Groovy,
     * whose first start delays the threads): its expression, as JMeter's JEXL runs it, agrees with
     * {@link CapacitySteps#plannedSeconds} for counts and steps of every shape.
     */
    @Test
    void theSchedulerPlansThreadsRunForTheLongestSearchAsCapacityStepsPlansIt() throws Exception {
        String xml = Files.readString(Path.of(System.getProperty("user.dir"), "test-plans", "zk-scheduler-model.jmx"),
                StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<stringProp name=\"ThreadGroup.duration\">\\$\\{__jexl3\\((.*),\\)}</stringProp>")
                .matcher(xml);
        assertTrue(m.find(), "the executors' duration is a __jexl3 expression");
        String expression = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        assertFalse(m.find(), "one thread group computes its duration");
        int[][] shapes = {{5, 5, 20, 60}, {7, 5, 7, 60}, {3, 1, 12, 4}, {1, 1, 1, 30}, {10, 3, 4, 5}, {2, 7, 100, 10},
                {5, 5, 21, 60}, {1, 1, 1000, 2}, {4, 0, 9, 8}};
        for (int[] shape : shapes) {
            Map<String, String> properties = Map.of("start_domains", Integer.toString(shape[0]),
                    "step", Integer.toString(shape[1]), "max_domains", Integer.toString(shape[2]), "step_seconds",
                    Integer.toString(shape[3]));
            assertEquals(CapacitySteps.plannedSeconds(shape[0], Math.max(1, shape[1]), shape[2], shape[3]),
                    seconds(expression, properties), Arrays.toString(shape));
        }
        // the defaults: 5 to 20 domains in steps of 5, 60 s a step
        assertEquals(CapacitySteps.plannedSeconds(5, 5, 20, 60), seconds(expression, Map.of()));
    }

    /**
     * The plan's expression evaluated as JMeter's __jexl3 does (its engine's settings), each
     * {@code ${__P(name,default)}} replaced first, innermost first, as JMeter does.
     */
    private static long seconds(String expression, Map<String, String> properties) {
        Pattern p = Pattern.compile("\\$\\{__P\\((\\w+),([^${}]*)\\)}");
        String text = expression;
        for (Matcher m = p.matcher(text); m.find(); m = p.matcher(text)) {
            text = text.substring(0, m.start()) + properties.getOrDefault(m.group(1), m.group(2)) + text.substring(m.end());
        }
        assertFalse(text.contains("${"), text);
        JexlEngine jexl = new JexlBuilder().cache(512).silent(true).strict(true).debug(false).create();
        return Long.parseLong(String.valueOf(jexl.createScript(text).execute(new MapContext())));
    }

    /**
     * zk-scheduler-model.jmx as it was saved before the search (its Capacity Steps without the Units
     * property and the gauge limits, its threads on a linear schedule) opens with every field, and the
     * element runs with them: it searches, sets the default property and writes its files.
     */
    @Test
    @Timeout(60)
    void anOldSavedPlanOpensAndItsCapacityStepsRuns() throws Exception {
        JMeterRuntime.initSaveService();
        File old = Path.of(CapacityStepsTest.class.getResource("/org/dsload/zookeeper/old-zk-scheduler-model.jmx").toURI())
                .toFile();
        HashTree tree = SaveService.loadTree(old);
        SearchByClass<CapacitySteps> found = new SearchByClass<>(CapacitySteps.class);
        tree.traverse(found);
        CapacitySteps element = found.getSearchResults().iterator().next();
        assertNotNull(element);
        TestBeanHelper.prepare(element);
        assertEquals("${__P(start_domains,${__P(domains,5)})}", element.getStartUnits(), "as saved");
        assertEquals("${__P(max_p99_ms,500)}", element.getMaxP99Millis(), "as saved");
        assertEquals("domains", element.getUnit());
        // what the saved ${__P(...)} give with -Jstart_domains=1 -Jstep=1 -Jmax_domains=2 -Jstep_seconds=1
        element.setStartUnits("1");
        element.setStepUnits("1");
        element.setMaxUnits("2");
        element.setStepSeconds("1");
        element.setMaxErrorPercent("1");
        element.setMaxP99Millis("500");
        JMeterUtils.setProperty(RunProperties.RUN_DIR, run.toString());
        AtomicBoolean over = new AtomicBoolean();
        Thread feeder = new Thread(() -> {
            long end = System.currentTimeMillis() + 30_000;
            while (!over.get() && System.currentTimeMillis() < end) {
                SampleResult r = SampleResult.createTestSample(System.currentTimeMillis(), System.currentTimeMillis() + 2);
                r.setSampleLabel("job start");
                r.setSuccessful(true);
                element.sampleOccurred(new SampleEvent(r, "executors"));
                Deadline.sleep(5);
            }
        });
        try {
            element.testStarted();
            assertEquals("1", JMeterUtils.getProperty("active_units"), "the first count, before the threads start");
            feeder.start();
            assertTrue(Deadline.await(() -> Files.exists(run.resolve(CapacitySection.FILE)), Duration.ofSeconds(30),
                    Duration.ofMillis(50)), "the search ends and writes its steps");
            element.testEnded();
        } finally {
            over.set(true);
            feeder.join();
            JMeterUtils.getJMeterProperties().remove(RunProperties.RUN_DIR);
        }
        assertEquals("2", JMeterUtils.getProperty("active_units"), "the count followed the search");
        String capacity = Files.readString(run.resolve(CapacitySection.FILE), StandardCharsets.UTF_8);
        assertTrue(capacity.startsWith("step 1: 1 domains"), capacity);
        assertTrue(capacity.contains("step 2: 2 domains"), capacity);
        assertTrue(capacity.contains("at least 2 domains"), capacity);
        String json = Files.readString(run.resolve(FindMaxReport.JSON), StandardCharsets.UTF_8);
        assertTrue(json.replace(" ", "").contains("\"rate\":2"), json);
        assertTrue(Files.exists(run.resolve(FindMaxReport.CHART)));
    }
}
