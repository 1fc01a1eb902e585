package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsload check}: judges a results file against latency-percentile and error-rate limits
 * and answers with the exit code, so a build (Maven's verify, a CI step) fails on a slow run as
 * it fails on a failed test.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        preprocessor = PercentileOptions.class,
        description = {"Judge a results file against limits on exact latency percentiles and on the share of"
                + " failed requests, for all labels together or for each --label. Every limit is printed with"
                + " the measured value. At least one limit is needed."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:every limit kept", "  1:a limit not kept, a label without requests, or the file"
                + " cannot be read", ExitCodes.USAGE_LINE})
final class CheckCommand extends Subcommand implements PercentileOptions.Limited {
    @Parameters(paramLabel = "<results.jtl>", description = "A JMeter results file in CSV.")
    private Path jtl;

    @Mixin
    private LimitOptions limitOptions;

    @Override
    public Limits limits() {
        return limitOptions.limits;
    }

    @Option(names = "--label", paramLabel = "<label>",
            description = "Judge this label on its own; repeat for several (default: all labels together but a"
                    + " warm-up's, those ending in '(warm-up)').")
    private List<String> labels = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Limits limits = limits();
        if (limits.isEmpty()) {
            throw usageError("check needs at least one limit (--max-p99 20ms, --max-error-rate 1% ...)");
        }
        if (!Files.isRegularFile(jtl)) {
            throw new IOException("no results file at " + jtl);
        }
        PrintStream out = out();
        Summary summary = Summary.of(jtl);
        out.println("dsload check of " + jtl + ": " + SummaryText.method(summary.total()));
        out.print(SummaryText.resolution(summary.total()));
        List<Limits.Verdict> failures = new ArrayList<>();
        for (LabelStats stats : judged(summary)) {
            for (Limits.Verdict verdict : limits.judge(stats)) {
                out.println(verdict.line());
                if (!verdict.held()) {
                    failures.add(verdict);
                }
            }
        }
        if (failures.isEmpty()) {
            out.println("dsload check: passed");
            return ExitCodes.OK;
        }
        out.println("dsload check: FAILED, " + failures.size() + (failures.size() == 1 ? " limit" : " limits")
                + " not kept: " + String.join("; ", failures.stream().map(v -> v.label() + " " + v.text()).toList()));
        return ExitCodes.FAILED;
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
