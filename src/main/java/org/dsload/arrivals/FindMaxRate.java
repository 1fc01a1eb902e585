package org.dsload.arrivals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ConfigException;
import org.dsload.core.EngineServices;
import org.dsload.core.Fields;
import org.dsload.core.JudgingListener;
import org.dsload.core.TestStop;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.dsload.gauges.GaugeLimit;
import org.dsload.gauges.InRunSearch;
import org.dsload.report.FindMaxReport;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload Find Max Rate (listener): {@code dsload find-max} inside one test. It sets the JMeter
 * property the plan's rate is read from ({@code ${__P(rate)}} in a dsload Constant Arrival Rate, which
 * takes a new rate at once) step by step, by the rule every dsload rate search follows
 * ({@link RateSearchRule}: double while the limits are kept, then bisect); holds each step for a settle
 * time, then a measured time whose samples (by their start) it judges on the limits as find-max does
 * ({@link Limits}, exact percentiles from the samples' microseconds, errors, late arrivals; server
 * gauges, {@link GaugeLimit}); and when the answer is found it stops the test, prints the answer and
 * writes {@code find-max.txt}, {@code find-max.json} and {@code find-max.png} into the run folder
 * ({@link InRunSearch}). The first step's rate is set when the test starts; its settle time starts with
 * the first sample judged, after the plan's warm-up (labels ending in {@code " (warm-up)"}), which so
 * runs at the first rate. It refuses to run on the engines of a distributed test: each would search on
 * its own samples alone, which {@code dsload find-max --slaves N} does right.
 */
@TestElementMetadata(labelResource = "displayName")
public class FindMaxRate extends JudgingListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(FindMaxRate.class);
    static final String DISPLAY_NAME = "dsload Find Max Rate";

    private String rateProperty = "rate";
    private String startRate = "100";
    private String settleSeconds = "5";
    private String stepSeconds = "10";
    private String maxSteps = "12";
    private String resolutionPercent = "10";
    private String repeatAnswer = "1";
    private String percentile = "99";
    private String maxLatencyMillis = "";
    private String maxErrorPercent = "1";
    private String maxLatePercent = "";
    private String maxGauges = "";
    private String labels = "";

    /** What one test's search needs, made from the fields at its start. */
    private record Settings(String property, double start, int maxSteps, double resolution, int repeats,
            InRunSearch.Plan plan) {
    }

    private transient Settings settings;
    private transient volatile InRunSearch search;
    private transient boolean acquired;

    @Override
    protected void started(String host) {
        search = null;
        if (host != null) {
            // refused before anything of the engine's starts for it
            settings = null;
            acquired = false;
            refuse(onEngines(getName()), RunProperties.engine(host));
            return;
        }
        EngineServices.acquire(this, host);
        acquired = true;
        try {
            settings = settings();
        } catch (ConfigException e) {
            settings = null;
            refuse(e.getMessage(), JMeterUtils.getPropDefault(RunProperties.ENGINE, RunProperties.MASTER));
            return;
        }
        // the first step's rate is there before the threads start
        JMeterUtils.setProperty(settings.property(), FindMaxReport.number(RateSearchRule.whole(settings.start())));
        Settings s = settings;
        InRunSearch started = new InRunSearch(new RateSearchRule(s.start(), s.maxSteps(), s.resolution())
                .confirmedBy(s.repeats()), s.plan());
        search = started;
        started.start("dsload-find-max-rate", (index, rate) -> JMeterUtils.setProperty(s.property(),
                FindMaxReport.number(rate)), s.property(), FindMaxRate::say, () -> {
                    report(s, started);
                    TestStop.markStopping(DISPLAY_NAME + " has its answer");
                    StandardJMeterEngine.stopEngine();
                });
    }

    /** Why the element does not run on the engines of a distributed test, and what does. */
    static String onEngines(String name) {
        return DISPLAY_NAME + " '" + name + "' runs in a test on one engine only: on the engines of a distributed test"
                + " each would search on its own share of the samples, and its answer would be that engine's alone."
                + " Disable it and search with dsload find-max --slaves N (or -R host:port,...), which shares each"
                + " step's rate over the engines and judges their samples together; or run the test on one engine.";
    }

    private Settings settings() {
        Fields f = new Fields(FindMaxRate.class, getName());
        String property = f.required("rateProperty", rateProperty);
        double start = positive(f, "startRate", startRate);
        long settle = f.longValue("settleSeconds", settleSeconds, 0, 86_400);
        long step = f.longValue("stepSeconds", stepSeconds, 1, 86_400);
        int steps = f.integer("maxSteps", maxSteps, 1, 1000);
        double resolution = positive(f, "resolutionPercent", resolutionPercent) / 100;
        int repeats = f.integer("repeatAnswer", repeatAnswer, 0, 1000, 1);
        Limits limits = new Limits();
        if (!f.text("maxLatencyMillis", maxLatencyMillis).isEmpty()) {
            double p = positive(f, "percentile", percentile);
            if (p > 100) {
                throw f.error("percentile", "must be at most 100, got " + percentile);
            }
            limits.maxPercentile(p, Math.round(positive(f, "maxLatencyMillis", maxLatencyMillis) * 1000));
        }
        if (!f.text("maxErrorPercent", maxErrorPercent).isEmpty()) {
            limits.maxErrorRatio(share(f, "maxErrorPercent", maxErrorPercent));
        }
        if (!f.text("maxLatePercent", maxLatePercent).isEmpty()) {
            limits.maxLateRatio(share(f, "maxLatePercent", maxLatePercent));
        }
        List<GaugeLimit> gauges = GaugeLimit.parseAll(f.text("maxGauges", maxGauges), e -> f.error("maxGauges", e));
        if (limits.isEmpty() && gauges.isEmpty()) {
            throw f.error("maxLatencyMillis", "or another limit must be set: the search needs at least one limit");
        }
        Pattern pattern = InRunSearch.labels(labels, e -> f.error("labels", e));
        return new Settings(property, start, steps, resolution, repeats,
                new InRunSearch.Plan(limits, gauges, settle * 1000, step * 1000, pattern, InRunSearch.runDir(), false));
    }

    private static double positive(Fields f, String property, String raw) {
        double value = f.number(property, raw);
        if (!(value > 0) || Double.isInfinite(value)) {
            throw f.error(property, "must be above 0, got " + f.text(property, raw));
        }
        return value;
    }

    private static double share(Fields f, String property, String raw) {
        String text = f.required(property, raw);
        try {
            double percent = Double.parseDouble(text);
            if (percent >= 0 && percent <= 100) {
                return percent / 100;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw f.error(property, "must be a percentage from 0 to 100, got '" + text + "'");
    }

    /** A setting that cannot work: one console line, a {@code refused} verdict for the runner, and the test stops. */
    private static void refuse(String message, String engine) {
        log.error("dsload: {}", message);
        System.err.println("dsload: " + message); // NOSONAR the console is where a headless user looks
        Path dir = InRunSearch.runDir();
        if (dir != null) {
            try {
                RunVerdict.refuse(dir, DISPLAY_NAME, engine, message);
            } catch (IOException e) {
                log.warn("dsload: cannot write the run verdict: {}", e.toString());
            }
        }
        TestStop.markStopping(message);
        StandardJMeterEngine.stopEngine();
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
            steps.end();
            report(s, steps);
        }
        if (acquired) {
            EngineServices.release(this);
        }
    }

    /** The table, JSON and chart of find-max, into the run folder (once per test), and the answer on the console. */
    private void report(Settings s, InRunSearch steps) {
        if (!steps.firstReport()) {
            return;
        }
        Path dir = InRunSearch.runDir();
        String text = steps.write(dir != null ? dir : Path.of(""), "this test (" + DISPLAY_NAME + " '" + getName() + "')",
                s.property(), null, problem -> log.warn("dsload find-max: {}", problem));
        System.out.print(text.lines().map(l -> "dsload find-max: " + l + "\n").reduce("", String::concat)); // NOSONAR
        log.info("dsload find-max:\n{}", text);
    }

    private static void say(String line) {
        log.info("dsload find-max: {}", line);
        System.out.println("dsload find-max: " + line); // NOSONAR the console is where a headless user looks
    }

    public String getRateProperty() {
        return rateProperty;
    }

    public void setRateProperty(String rateProperty) {
        this.rateProperty = rateProperty;
    }

    public String getStartRate() {
        return startRate;
    }

    public void setStartRate(String startRate) {
        this.startRate = startRate;
    }

    public String getSettleSeconds() {
        return settleSeconds;
    }

    public void setSettleSeconds(String settleSeconds) {
        this.settleSeconds = settleSeconds;
    }

    public String getStepSeconds() {
        return stepSeconds;
    }

    public void setStepSeconds(String stepSeconds) {
        this.stepSeconds = stepSeconds;
    }

    public String getMaxSteps() {
        return maxSteps;
    }

    public void setMaxSteps(String maxSteps) {
        this.maxSteps = maxSteps;
    }

    public String getResolutionPercent() {
        return resolutionPercent;
    }

    public void setResolutionPercent(String resolutionPercent) {
        this.resolutionPercent = resolutionPercent;
    }

    public String getRepeatAnswer() {
        return repeatAnswer;
    }

    public void setRepeatAnswer(String repeatAnswer) {
        this.repeatAnswer = repeatAnswer;
    }

    public String getPercentile() {
        return percentile;
    }

    public void setPercentile(String percentile) {
        this.percentile = percentile;
    }

    public String getMaxLatencyMillis() {
        return maxLatencyMillis;
    }

    public void setMaxLatencyMillis(String maxLatencyMillis) {
        this.maxLatencyMillis = maxLatencyMillis;
    }

    public String getMaxErrorPercent() {
        return maxErrorPercent;
    }

    public void setMaxErrorPercent(String maxErrorPercent) {
        this.maxErrorPercent = maxErrorPercent;
    }

    public String getMaxLatePercent() {
        return maxLatePercent;
    }

    public void setMaxLatePercent(String maxLatePercent) {
        this.maxLatePercent = maxLatePercent;
    }

    public String getMaxGauges() {
        return maxGauges;
    }

    public void setMaxGauges(String maxGauges) {
        this.maxGauges = maxGauges;
    }

    public String getLabels() {
        return labels;
    }

    public void setLabels(String labels) {
        this.labels = labels;
    }
}
