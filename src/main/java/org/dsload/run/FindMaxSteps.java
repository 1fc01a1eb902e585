package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.dsload.core.format.TimingValue;
import org.dsload.gauges.GaugeLimit;
import org.dsload.report.FindMaxReport;
import org.dsload.report.GeneratorCsv;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.Summary;
import org.dsload.report.WarmUp;

/**
 * The steps of {@code dsload find-max}: each one a real run of the plan ({@link PlanRunner}) with
 * its rate property set to the step's rate and its {@code duration} to the step's length plus the
 * settle time. The settle time is the plan's warm-up ({@code warmup}, whose requests the summary
 * keeps apart) when the plan has one, else the run's first seconds, left out of the figures. The
 * step's measured window is judged on the limits; a run without a successful request, or that
 * failed, breaks them by itself. A run interrupted or refused at its start ends the search
 * ({@link #ended}): the runs after it would not run either.
 */
public final class FindMaxSteps implements RateSearch.StepFunction {
    private final PlanRunner runner;
    private final Function<String, PlanRun> runs;
    private final String rateProperty;
    private final Limits limits;
    private final List<GaugeLimit> gaugeLimits;
    private final long stepSeconds;
    private final long settleSeconds;
    private final boolean planWarmUp;
    private final PrintStream console;
    private PlanRunner.Outcome ended;

    /**
     * @param runs       a new run of the plan, with every option of the command line, into the given run folder name
     * @param gaugeLimits limits on the server's own gauges, judged on the readings of the measured window
     * @param planWarmUp the plan reads a {@code warmup} property (seconds of warm-up under labels of their own)
     */
    public FindMaxSteps(PlanRunner runner, Function<String, PlanRun> runs, String rateProperty, Limits limits,
            List<GaugeLimit> gaugeLimits, long stepSeconds, long settleSeconds, boolean planWarmUp, PrintStream console) {
        this.runner = runner;
        this.runs = runs;
        this.rateProperty = rateProperty;
        this.limits = limits;
        this.gaugeLimits = List.copyOf(gaugeLimits);
        this.stepSeconds = stepSeconds;
        this.settleSeconds = settleSeconds;
        this.planWarmUp = planWarmUp;
        this.console = console;
    }

    /** The outcome of the step that was interrupted or refused at its start, and so ended the search; or null. */
    public PlanRunner.Outcome ended() {
        return ended;
    }

    @Override
    public FindMaxReport.Step run(int index, double rate) throws IOException, InterruptedException {
        String rateText = FindMaxReport.number(rate);
        PlanRun run = runs.apply(String.format(Locale.ROOT, "step-%02d-%s-%s", index, rateProperty, rateText));
        // every engine runs the plan's threads at the rate it is given: the step's rate is shared out
        int engines = run.engines();
        run.property(rateProperty, engines == 1 ? rateText : FindMaxReport.number(rate / engines));
        if (planWarmUp) {
            run.property("duration", Long.toString(stepSeconds));
            run.properties.putIfAbsent("warmup", Long.toString(settleSeconds));
        } else {
            run.property("duration", Long.toString(stepSeconds + settleSeconds));
        }
        console.println("dsload find-max: step " + index + ": " + rateProperty + "=" + rateText
                + (engines == 1 ? "" : " (" + run.properties.get(rateProperty) + " on each of " + engines + " engines)"));
        PlanRunner.Outcome outcome = runner.run(run);
        if (outcome.ending() == Ending.INTERRUPTED || outcome.ending() == Ending.REFUSED) {
            ended = outcome;
            return null;
        }
        FindMaxReport.Step step = judge(index, rate, outcome, engines);
        console.println("dsload find-max: step " + index + ": " + rateProperty + "=" + rateText + ": "
                + (step.kept() ? "limits kept" : "BROKEN: " + step.broke() + (step.generatorBound() ? " [generator]" : "")));
        return step;
    }

    private FindMaxReport.Step judge(int index, double rate, PlanRunner.Outcome outcome, int engines) throws IOException {
        String dir = outcome.dir().toString();
        Summary summary = outcome.summary();
        if (summary == null || outcome.ending() == Ending.NO_SUCCESS || outcome.ending() == Ending.FAILED) {
            return new FindMaxReport.Step(index, rate, 0, 0, 0, 0, 0, 1, 0, Double.NaN, false, "the run: "
                    + oneLine(outcome), false, dir);
        }
        LabelStats measured = planWarmUp ? summary.measured() : afterSettle(outcome.jtl(), settleSeconds * 1000);
        List<Limits.Verdict> verdicts = new java.util.ArrayList<>(limits.judge(measured));
        java.util.Map<String, Double> gauges = new java.util.LinkedHashMap<>();
        if (measured.requests() > 0) {
            for (GaugeLimit gauge : gaugeLimits) {
                GaugeLimit.Peak peak = gauge.peak(outcome.dir(), measured.firstStart());
                verdicts.add(gauge.judge(peak));
                if (!Double.isNaN(peak.value())) {
                    gauges.put(gauge.gauge(), peak.value());
                }
            }
        }
        boolean unsent = outcome.ending() == Ending.LOAD_INCOMPLETE && outcome.onlyArrivalsUnsent();
        String runProblem = outcome.ending() == Ending.OK ? null : "the run: " + oneLine(outcome);
        double cpu = cpuPeak(outcome.dir(), measured.firstStart());
        long requests = measured.requests();
        // Engines start one after another (seconds apart on a busy machine): their measured windows do not line
        // up, and the span of all of them would understate the rate. Each ran for the step's window.
        double achieved = engines > 1 ? (double) requests / stepSeconds
                : measured.scheduledSamples() > 1 ? measured.achievedRate() : measured.throughput();
        return FindMaxReport.step(index, rate, measured, verdicts, runProblem, achieved, cpu, unsent, dir, gauges);
    }

    /** The run's problem on one line: its heading and its reasons, separated by semicolons. */
    public static String oneLine(PlanRunner.Outcome outcome) {
        String problem = outcome.problem() == null ? "it ended " + outcome.ending() : outcome.problem();
        return String.join("; ", problem.lines().map(String::trim).filter(l -> !l.isEmpty()).toList())
                .replace(":;", ":");
    }

    /**
     * The generator's highest per-second CPU share of the machine (0 to 1) in the measured window, over
     * every engine; NaN when none was recorded.
     */
    private static double cpuPeak(Path dir, long fromMillis) throws IOException {
        double peak = Double.NaN;
        for (GeneratorCsv.Engine e : GeneratorCsv.read(dir)) {
            for (GeneratorCsv.Point p : e.series(GeneratorCsv.PROCESS_CPU)) {
                if (p.epochSecond() * 1000 >= fromMillis) {
                    peak = Double.isNaN(peak) ? p.value() / 100 : Math.max(peak, p.value() / 100);
                }
            }
        }
        return peak;
    }

    /** The figures of every request but the warm-up's, left out those that started in the first {@code settleMillis}. */
    static LabelStats afterSettle(Path jtl, long settleMillis) throws IOException {
        long first = Long.MAX_VALUE;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                first = Math.min(first, s.start());
            }
        }
        LabelStats stats = new LabelStats(Summary.MEASURED, TimingValue.DEFAULT_LATE_MICROS);
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                if (!WarmUp.is(s.label()) && s.start() >= first + settleMillis) {
                    stats.add(s);
                }
            }
        }
        return stats;
    }
}
