package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.BaselineLimits;
import org.dsload.report.JUnitReport;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.RunComparison;
import org.dsload.report.RunResults;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;
import org.dsload.report.WarmUp;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsload check}: judges a run against latency-percentile and error-rate limits, and against
 * a baseline run, and answers with the exit code, so a build (Maven's verify, a CI step) fails on a
 * slow run as it fails on a failed test; with {@code --junit} it also leaves the verdicts as a JUnit
 * XML report.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        preprocessor = PercentileOptions.class,
        description = {"Judge a run (its folder or its results file) against limits on exact latency percentiles"
                + " and on the share of failed requests, and with --baseline against another run's figures, for all"
                + " labels together or for each --label. Every limit is printed with the measured value. At least"
                + " one limit is needed."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:every limit kept", "  1:a limit not kept, a label without requests, or the run's results"
                + " cannot be read", "  2:usage error: unknown option, missing or malformed value, a baseline without"
                + " results or without a label in common with the run"})
final class CheckCommand extends Subcommand implements PercentileOptions.Limited {
    @Parameters(paramLabel = "<run>", description = "The run: its folder (as dsload run made it) or its JMeter results"
            + " file in CSV.")
    private Path jtl;

    @Mixin
    private LimitOptions limitOptions;

    /** The limits against the baseline, filled as {@link LimitOptions#limits}, in the order given. */
    private final BaselineLimits baselineLimits = new BaselineLimits();

    @Override
    public Limits limits() {
        return limitOptions.limits;
    }

    @Override
    public BaselineLimits baselineLimits() {
        return baselineLimits;
    }

    @Option(names = "--label", paramLabel = "<label>",
            description = "Judge this label on its own; repeat for several (default: all labels together but a"
                    + " warm-up's, those ending in '(warm-up)'; against a baseline, each label both runs have).")
    private List<String> labels = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "<run>",
            description = "Judge the run against this one (its folder or results file) with --max-p<N>-increase and"
                    + " --max-throughput-decrease.")
    private Path baseline;

    @Option(names = PercentileOptions.INCREASE_TEMPLATE, paramLabel = "<percent>",
            description = "With --baseline: the N-th latency percentile may rise by at most this share of the"
                    + " baseline's (10%%); N is any percentile: --max-p50-increase, --max-p99-increase ...")
    private void increaseTemplate(String percent) {
        throw usageError("write the percentile into the option's name: --max-p99-increase " + percent);
    }

    @Option(names = "--max-throughput-decrease", paramLabel = "<percent>", converter = OptionValues.Ratio.class,
            description = "With --baseline: the throughput may fall by at most this share of the baseline's (5%%).")
    private void maxThroughputDecrease(Double ratio) {
        if (ratio != null) {
            baselineLimits.maxThroughputDecrease(ratio);
        }
    }

    @Option(names = "--junit", paramLabel = "<file.xml>",
            description = "Also write the verdicts as a JUnit XML report in Maven Surefire's shape: one test case per"
                    + " limit and label, a failure for each limit not kept.")
    private Path junit;

    @Override
    public Integer call() throws IOException {
        Limits limits = limits();
        long began = System.nanoTime();
        if (limits.isEmpty() && baselineLimits.isEmpty()) {
            throw usageError("check needs at least one limit (--max-p99 20ms, --max-error-rate 1%, with --baseline"
                    + " --max-p99-increase 10% ...)");
        }
        if (baseline == null && !baselineLimits.isEmpty()) {
            throw usageError("--max-p<N>-increase and --max-throughput-decrease judge against a baseline: add"
                    + " --baseline <run>");
        }
        if (baseline != null && baselineLimits.isEmpty()) {
            throw usageError("--baseline needs a limit on the change: --max-p99-increase 10%,"
                    + " --max-throughput-decrease 5% ...");
        }
        Summary before = baseline == null ? null : baselineSummary();
        Path results = RunResults.find(jtl);
        Summary summary = Summary.of(results);
        List<String> baselineLabels = before == null ? List.of() : before.labels().stream()
                .filter(s -> s.requests() > 0 && !WarmUp.is(s.label())).map(LabelStats::label).toList();
        List<String> compared = before == null ? List.of() : comparedLabels(summary, baselineLabels);
        if (before != null && compared.isEmpty()) {
            List<String> runLabels = labels.isEmpty() ? summary.labels().stream()
                    .filter(s -> s.requests() > 0 && !WarmUp.is(s.label())).map(LabelStats::label).toList() : labels;
            throw usageError("the run and the baseline have no label in common: " + results + " has "
                    + RunComparison.quoted(runLabels) + ", the baseline " + before.source() + " has "
                    + RunComparison.quoted(baselineLabels));
        }
        PrintStream out = out();
        out.println("dsload check of " + results + ": " + SummaryText.method(summary.total()));
        out.print(SummaryText.resolution(summary.total()));
        List<Limits.Verdict> verdicts = new ArrayList<>();
        if (!limits.isEmpty()) {
            for (LabelStats stats : judged(summary)) {
                verdicts.addAll(limits.judge(stats));
            }
        }
        if (before != null) {
            out.println("Baseline: " + before.source());
            List<String> judged = labels.isEmpty() ? compared : labels;
            for (String label : judged) {
                LabelStats stats = summary.label(label);
                verdicts.addAll(baselineLimits.judge(stats != null ? stats : new LabelStats(label), before.label(label)));
            }
        }
        List<Limits.Verdict> failures = new ArrayList<>();
        for (Limits.Verdict verdict : verdicts) {
            out.println(verdict.line());
            if (!verdict.held()) {
                failures.add(verdict);
            }
        }
        if (junit != null) {
            JUnitReport.write(junit, "dsload." + RunResults.name(results), results, verdicts,
                    (System.nanoTime() - began) / 1e9);
            out.println("dsload check: JUnit report " + junit);
        }
        if (failures.isEmpty()) {
            out.println("dsload check: passed");
            return ExitCodes.OK;
        }
        out.println("dsload check: FAILED, " + failures.size() + (failures.size() == 1 ? " limit" : " limits")
                + " not kept: " + String.join("; ", failures.stream().map(v -> v.label() + " " + v.text()).toList()));
        return ExitCodes.FAILED;
    }

    /** The baseline's summary, or a usage error when it has no results. */
    private Summary baselineSummary() {
        try {
            return Summary.of(RunResults.find(baseline));
        } catch (IOException e) {
            throw usageError("--baseline: " + e.getMessage());
        }
    }

    /** The labels judged against the baseline that it has: the --label ones, or every label both runs have. */
    private List<String> comparedLabels(Summary summary, List<String> baselineLabels) {
        if (!labels.isEmpty()) {
            return labels.stream().filter(baselineLabels::contains).toList();
        }
        return summary.labels().stream().filter(s -> s.requests() > 0).map(LabelStats::label)
                .filter(baselineLabels::contains).toList();
    }

    private List<LabelStats> judged(Summary summary) {
        if (labels.isEmpty()) {
            return List.of(summary.measured());
        }
        List<LabelStats> judged = new ArrayList<>();
        for (String label : labels) {
            LabelStats stats = summary.label(label);
            // A label that never appeared fails as "no requests" rather than passing unseen.
            judged.add(stats != null ? stats : new LabelStats(label));
        }
        return judged;
    }
}
