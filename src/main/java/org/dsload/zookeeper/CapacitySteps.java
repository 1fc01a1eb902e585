package org.dsload.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.JudgingListener;
import org.dsload.core.TestStop;
import org.dsload.gauges.GaugeLimit;
import org.dsload.gauges.InRunSearch;
import org.dsload.report.FindMaxReport;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.dsload.zookeeper.report.CapacitySection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capacity Steps (listener): searches the capacity of a load counted in units (S4: domains of the
 * scheduler model) within one test, by the rule of every dsload rate search ({@link RateSearchRule}):
 * from the first step's count it doubles while a step keeps its bounds (error share, p99, and server
 * gauges when set), up to the maximum, then bisects between the last count kept and the first broken
 * until they lie within the step's count of each other. It sets the JMeter property the plan's threads
 * read the count of active units from ({@code active_domains} in zk-scheduler-model.jmx), so the load
 * follows the search up and down; judges each step's samples (by their start) as {@code dsload find-max}
 * does ({@link InRunSearch}); stops the test at the answer; and writes find-max's
 * {@code find-max.txt}, {@code .json} and {@code .png} and the steps in words ({@value CapacitySection#FILE})
 * into the run folder. Each engine of a distributed test searches with its own samples and units.
 */
@TestElementMetadata(labelResource = "displayName")
public class CapacitySteps extends JudgingListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(CapacitySteps.class);
    /** Seconds a test of several steps is given for its start and for each step's late samples. */
    static final long START_SLACK_SECONDS = 10;
    static final long STEP_SLACK_SECONDS = 2;

    private String startUnits = "5";
    private String stepUnits = "5";
    private String maxUnits = "20";
    private String stepSeconds = "60";
    private String maxErrorPercent = "1";
    private String maxP99Millis = "500";
    private String maxGauges = "";
    private String unit = "domains";
    private String unitsProperty = "active_units";
    private String labels = "";

    /** What one test's search needs, made from the fields at its start. */
    private record Settings(String property, String unit, RateSearchRule rule, InRunSearch.Plan plan) {
    }

    private transient Settings settings;
    private transient volatile InRunSearch search;

    @Override
    protected void started(String host) {
        search = null;
        try {
            settings = settings();
        } catch (ConfigException e) {
            settings = null;
            log.error("dsload: {}", e.getMessage());
            System.err.println("dsload: " + e.getMessage()); // NOSONAR the console is where a headless user looks
            return;
        }
        Settings s = settings;
        // the first step's count is there before the threads start
        JMeterUtils.setProperty(s.property(), FindMaxReport.number(s.rule().next()));
        InRunSearch started = new InRunSearch(s.rule(), s.plan());
        search = started;
        started.start("dsload-capacity-steps", (index, units) -> JMeterUtils.setProperty(s.property(),
                FindMaxReport.number(units)), s.property(), line -> log.info("dsload capacity: {}", line), () -> {
                    String verdict = report(s, started);
                    System.out.println("dsload: " + verdict + "; stopping the test"); // NOSONAR console report
                    TestStop.markStopping(verdict);
                    StandardJMeterEngine.stopEngine();
                });
    }

    private Settings settings() {
        Fields f = new Fields(CapacitySteps.class, getName());
        int start = f.integer("startUnits", startUnits, 1, Integer.MAX_VALUE);
        int step = f.integer("stepUnits", stepUnits, 1, Integer.MAX_VALUE);
        int max = f.integer("maxUnits", maxUnits, start, Integer.MAX_VALUE);
        long seconds = f.longValue("stepSeconds", stepSeconds, 1, Long.MAX_VALUE / 1000);
        double errors = f.number("maxErrorPercent", maxErrorPercent);
        if (!(errors >= 0 && errors <= 100)) {
            throw f.error("maxErrorPercent", "must be a percentage from 0 to 100, got " + f.text("maxErrorPercent",
                    maxErrorPercent));
        }
        long p99 = f.longValue("maxP99Millis", maxP99Millis, 1, Long.MAX_VALUE / 1000);
        List<GaugeLimit> gauges = GaugeLimit.parseAll(f.text("maxGauges", maxGauges), e -> f.error("maxGauges", e));
        String property = f.text("unitsProperty", unitsProperty).isEmpty() ? "active_units"
                : f.text("unitsProperty", unitsProperty);
        Pattern pattern = InRunSearch.labels(labels, e -> f.error("labels", e));
        Limits limits = new Limits().maxErrorRatio(errors / 100).maxPercentile(99, p99 * 1000);
        RateSearchRule rule = new RateSearchRule(start, RateSearchRule.mostSteps(start, max, step), 0, true).upTo(max)
                .within(step);
        return new Settings(property, f.text("unit", unit).isEmpty() ? "units" : f.text("unit", unit), rule,
                new InRunSearch.Plan(limits, gauges, 0, seconds * 1000, pattern, InRunSearch.runDir(), true));
    }

    /**
     * How long a plan's threads should run for the search of these fields: one step's length when the
     * first count is the maximum (a run of one count, as {@code dsload find-max} makes), else the most
     * steps the search can take, each with time for its late samples, and time for the start.
     */
    public static long plannedSeconds(int start, int step, int max, long stepSeconds) {
        int steps = RateSearchRule.mostSteps(start, Math.max(start, max), step);
        return steps == 1 ? stepSeconds : START_SLACK_SECONDS + steps * (stepSeconds + STEP_SLACK_SECONDS);
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        InRunSearch s = search;
        if (s != null) {
            s.offer(event);
        }
    }

    @Override
    public void testEnded() {
        InRunSearch steps = search;
        Settings s = settings;
        if (steps != null && s != null) {
            steps.end(); // the step the end cut short is judged on what it holds
            report(s, steps);
        }
    }

    /**
     * find-max's files and the steps in words into the run folder (once per test), and the steps on
     * the console; the verdict.
     */
    private String report(Settings s, InRunSearch steps) {
        if (!steps.firstReport()) {
            return "";
        }
        Path dir = InRunSearch.runDir();
        steps.write(dir != null ? dir : Path.of(""), "this test (dsload Capacity Steps '" + getName() + "')", s.property(),
                s.unit(), problem -> log.warn("dsload capacity: {}", problem));
        String text = capacityText(steps.steps(), steps.answer(), steps.done(), s.unit());
        System.out.print(text.lines().map(l -> "dsload capacity: " + l + "\n") // NOSONAR console report
                .reduce("", String::concat));
        log.info("dsload capacity:\n{}", text);
        if (dir != null) {
            try {
                Files.writeString(dir.resolve(CapacitySection.FILE), text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                log.warn("dsload: cannot write {}: {}", CapacitySection.FILE, e.toString());
            }
        }
        return text.lines().reduce((a, b) -> b).orElse("");
    }

    /** Each step in a line, in the order they ran, then the verdict. */
    static String capacityText(List<FindMaxReport.Step> steps, FindMaxReport.Answer answer, boolean done, String unit) {
        StringBuilder text = new StringBuilder();
        for (FindMaxReport.Step s : steps) {
            text.append(String.format(Locale.ROOT, "step %d: %s %s, %d samples, errors %.2f%%, p99 %d ms: %s%n", s.index(),
                    FindMaxReport.number(s.rate()), unit, s.requests(), s.errorRatio() * 100, s.p99Micros() / 1000,
                    s.kept() ? "ok" : "FAILED (" + s.broke() + ")"));
        }
        text.append(verdict(steps, answer, done, unit)).append('\n');
        return text.toString();
    }

    private static String verdict(List<FindMaxReport.Step> steps, FindMaxReport.Answer answer, boolean done, String unit) {
        if (steps.isEmpty()) {
            return "no step ran to its end";
        }
        if (!answer.found()) {
            return "no step passed: not even " + FindMaxReport.number(steps.get(0).rate()) + " " + unit
                    + " met the bounds (" + answer.broke() + ")";
        }
        String capacity = FindMaxReport.number(answer.rate()) + " " + unit;
        if (answer.broke() != null) {
            FindMaxReport.Step broken = steps.stream().filter(s -> !s.kept())
                    .min((a, b) -> Double.compare(a.rate(), b.rate())).orElseThrow();
            return (done ? "capacity reached: " : "capacity so far (the test ended before the search did): ") + capacity
                    + " (step " + broken.index() + " with " + FindMaxReport.number(broken.rate()) + " " + unit
                    + " failed: " + broken.broke() + ")";
        }
        return done ? "at least " + capacity + ": every step passed up to the maximum (raise the maximum to find the limit)"
                : capacity + " passed; the test ended before the search did";
    }

    public String getStartUnits() {
        return startUnits;
    }

    public void setStartUnits(String startUnits) {
        this.startUnits = startUnits;
    }

    public String getStepUnits() {
        return stepUnits;
    }

    public void setStepUnits(String stepUnits) {
        this.stepUnits = stepUnits;
    }

    public String getMaxUnits() {
        return maxUnits;
    }

    public void setMaxUnits(String maxUnits) {
        this.maxUnits = maxUnits;
    }

    public String getStepSeconds() {
        return stepSeconds;
    }

    public void setStepSeconds(String stepSeconds) {
        this.stepSeconds = stepSeconds;
    }

    public String getMaxErrorPercent() {
        return maxErrorPercent;
    }

    public void setMaxErrorPercent(String maxErrorPercent) {
        this.maxErrorPercent = maxErrorPercent;
    }

    public String getMaxP99Millis() {
        return maxP99Millis;
    }

    public void setMaxP99Millis(String maxP99Millis) {
        this.maxP99Millis = maxP99Millis;
    }

    public String getMaxGauges() {
        return maxGauges;
    }

    public void setMaxGauges(String maxGauges) {
        this.maxGauges = maxGauges;
    }

    public String getUnit() {
        return unit;
    }

    public void setUnit(String unit) {
        this.unit = unit;
    }

    public String getUnitsProperty() {
        return unitsProperty;
    }

    public void setUnitsProperty(String unitsProperty) {
        this.unitsProperty = unitsProperty;
    }

    public String getLabels() {
        return labels;
    }

    public void setLabels(String labels) {
        this.labels = labels;
    }
}
