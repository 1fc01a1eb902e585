package org.dsload.arrivals;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ConfigException;
import org.dsload.core.EngineServices;
import org.dsload.core.Fields;
import org.dsload.core.JudgingListener;
import org.dsload.core.SampleTiming;
import org.dsload.core.TestStop;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.dsload.core.format.TimingValue;
import org.dsload.report.FindMaxReport;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.dsload.report.Summary;
import org.dsload.report.WarmUp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * dsload Find Max Rate (listener): {@code dsload find-max} inside one test. It sets the JMeter
 * property the plan's rate is read from ({@code ${__P(rate)}} in a dsload Constant Arrival Rate, which
 * takes a new rate at once) step by step, by the rule every dsload rate search follows
 * ({@link RateSearchRule}: double while the limits are kept, then bisect); holds each step for a settle
 * time, then a measured time whose samples (by their start) it judges on the limits as find-max does
 * ({@link Limits}, exact percentiles from the samples' microseconds, errors, late arrivals); and when
 * the answer is found it stops the test, prints the answer and writes {@code find-max.txt} and
 * {@code find-max.json} into the run folder. The first step's rate is set when the test starts; its
 * settle time starts with the first sample judged, after the plan's warm-up (labels ending in
 * {@code " (warm-up)"}), which so runs at the first rate. Each engine searches with its own samples.
 */
@TestElementMetadata(labelResource = "displayName")
public class FindMaxRate extends JudgingListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(FindMaxRate.class);
    /** How long after a measured window's end its last samples may still come in. */
    private static final long GRACE_MILLIS = 1000;

    private String rateProperty = "rate";
    private String startRate = "100";
    private String settleSeconds = "5";
    private String stepSeconds = "10";
    private String maxSteps = "12";
    private String resolutionPercent = "10";
    private String percentile = "99";
    private String maxLatencyMillis = "";
    private String maxErrorPercent = "1";
    private String maxLatePercent = "";
    private String labels = "";

    /** What one test's search needs, made from the fields at its start. */
    private record Settings(String property, double start, long settleMillis, long stepMillis, int maxSteps,
            double resolution, Limits limits, Pattern labels) {
    }

    private transient Settings settings;
    private transient Thread driver;
    /** The samples of the open measured window, or null between windows. */
    private transient LabelStats window;
    private transient long windowStart;
    private transient long windowEnd;
    private transient RateSearchRule rule;
    private transient boolean written;
    /** Counted down by the first sample judged (not a warm-up's): the search starts there. */
    private transient java.util.concurrent.CountDownLatch firstSample;

    @Override
    protected void started(String host) {
        EngineServices.acquire(this, host);
        synchronized (this) {
            window = null;
            rule = null;
            written = false;
            firstSample = new java.util.concurrent.CountDownLatch(1);
        }
        try {
            settings = settings();
        } catch (ConfigException e) {
            settings = null;
            refuse(e.getMessage());
            return;
        }
        // the first step's rate is there before the threads start
        JMeterUtils.setProperty(settings.property(), FindMaxReport.number(RateSearchRule.whole(settings.start())));
        Settings s = settings;
        driver = new Thread(() -> search(s), "dsload-find-max-rate");
        driver.setDaemon(true);
        driver.start();
    }

    private Settings settings() {
        Fields f = new Fields(FindMaxRate.class, getName());
        String property = f.required("rateProperty", rateProperty);
        double start = positive(f, "startRate", startRate);
        long settle = f.longValue("settleSeconds", settleSeconds, 0, 86_400);
        long step = f.longValue("stepSeconds", stepSeconds, 1, 86_400);
        int steps = f.integer("maxSteps", maxSteps, 1, 1000);
        double resolution = positive(f, "resolutionPercent", resolutionPercent) / 100;
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
        if (limits.isEmpty()) {
            throw f.error("maxLatencyMillis", "or another limit must be set: the search needs at least one limit");
        }
        String filter = f.text("labels", labels);
        Pattern pattern;
        try {
            pattern = filter.isEmpty() ? null : Pattern.compile(filter);
        } catch (PatternSyntaxException e) {
            throw f.error("labels", "is not a regular expression: " + e.getDescription());
        }
        return new Settings(property, start, settle * 1000, step * 1000, steps, resolution, limits, pattern);
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
    private void refuse(String message) {
        log.error("dsload: {}", message);
        System.err.println("dsload: " + message); // NOSONAR the console is where a headless user looks
        Path dir = runDir();
        if (dir != null) {
            try {
                RunVerdict.refuse(dir, "dsload Find Max Rate", JMeterUtils.getPropDefault(RunProperties.ENGINE, "master"),
                        message);
            } catch (IOException e) {
                log.warn("dsload: cannot write the run verdict: {}", e.toString());
            }
        }
        TestStop.markStopping(message);
        StandardJMeterEngine.stopEngine();
    }

    /** The search, on a thread of its own: a step at a time until the rule is done or the test ends. */
    private void search(Settings s) {
        RateSearchRule search = new RateSearchRule(s.start(), s.maxSteps(), s.resolution());
        synchronized (this) {
            rule = search;
        }
        try {
            // after the plan's warm-up (its labels end in " (warm-up)"), which runs at the first rate
            firstSample.await();
            while (!search.done()) {
                int index = search.steps().size() + 1;
                double rate = search.next();
                String text = FindMaxReport.number(rate);
                JMeterUtils.setProperty(s.property(), text);
                say("step " + index + ": " + s.property() + "=" + text);
                Thread.sleep(s.settleMillis());
                long start = System.currentTimeMillis();
                synchronized (this) {
                    windowStart = start;
                    windowEnd = start + s.stepMillis();
                    window = new LabelStats(Summary.MEASURED, TimingValue.DEFAULT_LATE_MICROS);
                }
                double cpu = cpuPeakUntil(start + s.stepMillis() + GRACE_MILLIS);
                LabelStats measured;
                synchronized (this) {
                    measured = window;
                    window = null;
                }
                List<Limits.Verdict> verdicts = s.limits().judge(measured);
                double achieved = measured.scheduledSamples() > 1 ? measured.achievedRate()
                        : measured.requests() / (s.stepMillis() / 1000.0);
                FindMaxReport.Step step = FindMaxReport.step(index, rate, measured, verdicts, null, achieved, cpu, false,
                        runDir() == null ? "" : runDir().toString(), Map.of());
                synchronized (this) {
                    search.judged(step);
                }
                say("step " + index + ": " + s.property() + "=" + text + ": " + (step.kept() ? "limits kept"
                        : "BROKEN: " + step.broke() + (step.generatorBound() ? " [generator]" : "")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the test ended first: testEnded writes what was found
        }
        report(s, search);
        TestStop.markStopping("dsload Find Max Rate has its answer");
        StandardJMeterEngine.stopEngine();
    }

    /** Waits until {@code untilMillis}, reading the process's CPU share of the machine each second; its highest. */
    private static double cpuPeakUntil(long untilMillis) throws InterruptedException {
        double peak = Double.NaN;
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        while (true) {
            long left = untilMillis - System.currentTimeMillis();
            if (left <= 0) {
                return peak;
            }
            Thread.sleep(Math.min(1000, left));
            if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
                double load = sun.getProcessCpuLoad();
                if (load >= 0) {
                    peak = Double.isNaN(peak) ? load : Math.max(peak, load);
                }
            }
        }
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        SampleResult r = event.getResult();
        String label = r.getSampleLabel();
        Settings s = settings;
        if (s == null || WarmUp.is(label) || s.labels() != null && !s.labels().matcher(label).matches()) {
            return;
        }
        long start = r.getStartTime();
        firstSample.countDown();
        synchronized (this) {
            if (window == null || start < windowStart || start >= windowEnd) {
                return;
            }
        }
        List<JtlSample> requests = JtlReader.requests(start, r.getTime(), SampleTiming.of(event), label,
                nonNull(r.getResponseCode()), nonNull(r.getResponseMessage()), r.isSuccessful(), r.getBytesAsLong(),
                r.getSentBytes(), r.getLatency(), r.getConnectTime(), Math.max(1, r.getSampleCount()), "",
                nonNull(r.getThreadName()), "");
        synchronized (this) {
            if (window != null) {
                requests.forEach(window::add);
            }
        }
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    @Override
    public void testEnded() {
        Thread d = driver;
        if (d != null && d.isAlive() && d != Thread.currentThread()) {
            d.interrupt();
        }
        Settings s = settings;
        RateSearchRule search;
        synchronized (this) {
            search = rule;
        }
        if (s != null && search != null) {
            report(s, search);
        }
        EngineServices.release(this);
    }

    /** The table and the JSON of find-max, into the run folder (once per test), and the answer on the console. */
    private void report(Settings s, RateSearchRule search) {
        List<FindMaxReport.Step> steps;
        FindMaxReport.Answer answer;
        synchronized (this) {
            if (written) {
                return;
            }
            written = true;
            steps = search.steps();
            answer = search.answer();
        }
        String text = FindMaxReport.text("this test (dsload Find Max Rate '" + getName() + "')", s.property(), answer, steps);
        if (!search.done()) {
            text += "The test ended before the search did: the answer is that of the steps run until then.\n";
        }
        System.out.print(text.lines().map(l -> "dsload find-max: " + l + "\n").reduce("", String::concat)); // NOSONAR
        log.info("dsload find-max:\n{}", text);
        Path dir = runDir();
        Path folder = dir != null ? dir : Path.of("");
        try {
            Files.writeString(folder.resolve(FindMaxReport.TEXT), text, StandardCharsets.UTF_8);
            Files.writeString(folder.resolve(FindMaxReport.JSON), FindMaxReport.json(answer, steps), StandardCharsets.UTF_8);
        } catch (IOException e) {
            log.warn("dsload: cannot write {}: {}", FindMaxReport.JSON, e.toString());
        }
    }

    private static void say(String line) {
        log.info("dsload find-max: {}", line);
        System.out.println("dsload find-max: " + line); // NOSONAR the console is where a headless user looks
    }

    private static Path runDir() {
        String dir = JMeterUtils.getProperty(RunProperties.RUN_DIR);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
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

    public String getLabels() {
        return labels;
    }

    public void setLabels(String labels) {
        this.labels = labels;
    }
}
