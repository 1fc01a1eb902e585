package org.dsload.gauges;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.TimingValue;
import org.dsload.report.FindMaxReport;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.dsload.report.Summary;
import org.dsload.report.WarmUp;

/**
 * A rate search within one test, as the listeners that run one share it (dsload Find Max Rate, dsload
 * Capacity Steps): the steps follow {@link RateSearchRule}; each step sets the plan's property through
 * a {@link Setting}, is held for a settle time and then a measured time, and the samples that started
 * in the measured window (warm-up labels left out, only those {@code labels} matches when it is set)
 * are judged as {@code dsload find-max} judges a run: {@link Limits} on exact percentiles, errors and
 * late arrivals, and {@link GaugeLimit}s on the highest reading of the server's gauges the run folder
 * holds from the window's start. The search starts with the first sample judged. Thread-safe: the
 * engine's threads {@link #offer} samples while one thread {@link #run}s the steps.
 */
public final class InRunSearch {
    /** How long after a measured window's end its last samples may still come in. */
    static final long GRACE_MILLIS = 1000;

    /** Sets the plan's property to a step's rate (or count); {@code index} counts from 1. */
    @FunctionalInterface
    public interface Setting {
        void apply(int index, double rate);
    }

    /**
     * What a search judges and how long each step lasts.
     *
     * @param gaugeLimits limits on the server's gauges, read from the files of {@code runDir} (null: no run folder)
     * @param labels      the labels judged, null for every label
     * @param judgeCut    a measured window the test's end cuts short is judged on what it holds (a step shorter
     *                    than the others); else it is left out
     */
    public record Plan(Limits limits, List<GaugeLimit> gaugeLimits, long settleMillis, long stepMillis, Pattern labels,
            Path runDir, boolean judgeCut) {
        public Plan {
            gaugeLimits = List.copyOf(gaugeLimits);
        }
    }

    private final RateSearchRule rule;
    private final Plan plan;
    private final CountDownLatch firstSample = new CountDownLatch(1);
    /** The samples of the open measured window, or null between windows. */
    private LabelStats window;
    private long windowStart;
    private long windowEnd;
    private Thread driver;
    private boolean reported;

    public InRunSearch(RateSearchRule rule, Plan plan) {
        this.rule = rule;
        this.plan = plan;
    }

    /** The run folder of this engine (the runner's {@value RunProperties#RUN_DIR}), or null outside a dsload run. */
    public static Path runDir() {
        String dir = JMeterUtils.getProperty(RunProperties.RUN_DIR);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * The labels a search judges: a regular expression, null for empty text (every label).
     *
     * @param error what to throw, given what is wrong in a sentence
     */
    public static Pattern labels(String text, Function<String, ? extends RuntimeException> error) {
        try {
            return text == null || text.isBlank() ? null : Pattern.compile(text.trim());
        } catch (PatternSyntaxException e) {
            throw error.apply("is not a regular expression: " + e.getDescription());
        }
    }

    /** A sample as it ended: counted when it is judged and started in the open measured window. */
    public void offer(SampleEvent event) {
        SampleResult r = event.getResult();
        String label = r.getSampleLabel();
        if (WarmUp.is(label) || plan.labels() != null && !plan.labels().matcher(label).matches()) {
            return;
        }
        firstSample.countDown();
        long start = r.getStartTime();
        synchronized (this) {
            if (window == null || start < windowStart || start >= windowEnd) {
                return;
            }
        }
        List<JtlSample> requests = JtlReader.requests(start, r.getTime(), SampleTiming.of(event), label,
                text(r.getResponseCode()), text(r.getResponseMessage()), r.isSuccessful(), r.getBytesAsLong(),
                r.getSentBytes(), r.getLatency(), r.getConnectTime(), Math.max(1, r.getSampleCount()), "",
                text(r.getThreadName()), "");
        synchronized (this) {
            if (window != null) {
                requests.forEach(window::add);
            }
        }
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    /**
     * {@link #run} on a daemon thread of its own; {@code atAnswer} runs on it when the rule is done (not
     * when the test ended first, {@link #end}).
     */
    public synchronized void start(String threadName, Setting setting, String property, Consumer<String> say,
            Runnable atAnswer) {
        driver = new Thread(() -> {
            try {
                run(setting, property, say);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // the test ended first
            }
            atAnswer.run();
        }, threadName);
        driver.setDaemon(true);
        driver.start();
    }

    /**
     * The test ends: the steps stop, and a step the end cut short is judged before this returns (when
     * the plan says so), or the answer written, waiting up to 5 s for it.
     */
    public void end() {
        Thread d;
        synchronized (this) {
            d = driver;
        }
        if (d != null && d.isAlive() && d != Thread.currentThread()) {
            if (!done()) {
                d.interrupt(); // not once the answer is being written
            }
            try {
                d.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True the first time only: whoever gets it writes the search's report (the answer's thread, or the test's end). */
    public synchronized boolean firstReport() {
        boolean first = !reported;
        reported = true;
        return first;
    }

    /**
     * The steps, one after another, until the rule is done: waits for the first sample judged, then for
     * each step sets its rate, waits the settle time, measures, judges.
     *
     * @param say each step's start and verdict, in a line
     * @throws InterruptedException when the test ended first (the steps judged so far stay)
     */
    public void run(Setting setting, String property, Consumer<String> say) throws InterruptedException {
        firstSample.await();
        while (true) {
            int index;
            double rate;
            synchronized (this) {
                if (rule.done()) {
                    return;
                }
                index = rule.steps().size() + 1;
                rate = rule.next();
            }
            String text = FindMaxReport.number(rate);
            setting.apply(index, rate);
            say.accept("step " + index + ": " + property + "=" + text);
            Thread.sleep(plan.settleMillis());
            long start = System.currentTimeMillis();
            synchronized (this) {
                windowStart = start;
                windowEnd = start + plan.stepMillis();
                window = new LabelStats(Summary.MEASURED, TimingValue.DEFAULT_LATE_MICROS);
            }
            double cpu;
            try {
                cpu = cpuPeakUntil(start + plan.stepMillis() + GRACE_MILLIS);
            } catch (InterruptedException e) {
                LabelStats cut = closeWindow();
                if (plan.judgeCut() && cut.requests() > 0) {
                    FindMaxReport.Step step = judge(index, rate, cut, start, Double.NaN);
                    synchronized (this) {
                        rule.judged(step);
                    }
                }
                throw e;
            }
            FindMaxReport.Step step = judge(index, rate, closeWindow(), start, cpu);
            synchronized (this) {
                rule.judged(step);
            }
            say.accept("step " + index + ": " + property + "=" + text + ": " + (step.kept() ? "limits kept"
                    : "BROKEN: " + step.broke() + (step.generatorBound() ? " [generator]" : "")));
        }
    }

    private synchronized LabelStats closeWindow() {
        LabelStats measured = window;
        window = null;
        return measured;
    }

    /** One step's window judged on the limits and the gauges' highest readings from its start. */
    FindMaxReport.Step judge(int index, double rate, LabelStats measured, long fromMillis, double cpu) {
        List<Limits.Verdict> verdicts = new ArrayList<>(plan.limits().judge(measured));
        Map<String, Double> peaks = new LinkedHashMap<>();
        if (measured.requests() > 0) {
            for (GaugeLimit gauge : plan.gaugeLimits()) {
                GaugeLimit.Peak peak = peak(gauge, fromMillis);
                verdicts.add(gauge.judge(peak));
                if (!Double.isNaN(peak.value())) {
                    peaks.put(gauge.gauge(), peak.value());
                }
            }
        }
        double achieved = measured.scheduledSamples() > 1 ? measured.achievedRate()
                : measured.requests() / (plan.stepMillis() / 1000.0);
        return FindMaxReport.step(index, rate, measured, verdicts, null, achieved, cpu, false,
                plan.runDir() == null ? "" : plan.runDir().toString(), peaks);
    }

    private GaugeLimit.Peak peak(GaugeLimit gauge, long fromMillis) {
        if (plan.runDir() != null) {
            try {
                return gauge.peak(plan.runDir(), fromMillis);
            } catch (IOException e) {
                // unreadable files: judged as no reading
            }
        }
        return new GaugeLimit.Peak(Double.NaN, null, Set.of(), Set.of());
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

    /** Whether the rule has its answer (or ran out of steps). */
    public synchronized boolean done() {
        return rule.done();
    }

    /** The steps judged so far, in order. */
    public synchronized List<FindMaxReport.Step> steps() {
        return rule.steps();
    }

    /** The answer of the steps judged so far. */
    public synchronized FindMaxReport.Answer answer() {
        return rule.answer();
    }

    /**
     * find-max's table ({@link FindMaxReport#TEXT}), JSON and chart of the steps so far, into
     * {@code folder}; the table is returned.
     *
     * @param unit what the property counts ({@code domains}), null for a rate
     */
    public String write(Path folder, String title, String property, String unit, Consumer<String> warn) {
        List<FindMaxReport.Step> steps;
        FindMaxReport.Answer answer;
        boolean finished;
        synchronized (this) {
            steps = rule.steps();
            answer = rule.answer();
            finished = rule.done();
        }
        String text = FindMaxReport.text(title, property, unit, answer, steps);
        if (!finished) {
            text += "The test ended before the search did: the answer is that of the steps run until then.\n";
        }
        try {
            Files.writeString(folder.resolve(FindMaxReport.TEXT), text, StandardCharsets.UTF_8);
            Files.writeString(folder.resolve(FindMaxReport.JSON), FindMaxReport.json(answer, unit, steps),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            warn.accept("cannot write " + FindMaxReport.JSON + ": " + e);
        }
        if (!steps.isEmpty()) {
            try {
                FindMaxReport.chart(property, steps, folder.resolve(FindMaxReport.CHART));
            } catch (IOException | RuntimeException e) {
                warn.accept("no chart: " + e);
            }
        }
        return text;
    }
}
