package org.dsload.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.report.ComparisonChart;
import org.dsload.report.RunComparison;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsload compare}: two runs side by side, label by label, with whether each change is beyond
 * the runs' own second-to-second noise; exits 1 when a label regressed, so a CI step can gate on it.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare two runs label by label: throughput and p50/p90/p99/p99.9 of each with the change"
                + " in percent, and whether the change is beyond run-to-run noise (a two-sided Mann-Whitney U test"
                + " of each whole second's p99 and requests). Prints the table and writes compare.txt,"
                + " compare.json and " + ComparisonChart.FILE + " (the percentile curves of both runs)."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:no label regressed beyond the noise", "  1:a label regressed beyond the noise (p99 higher"
                + " or throughput lower), or a file cannot be written", "  2:usage error: a run without results, runs"
                + " without a label in common, a malformed value"})
final class CompareCommand extends Subcommand {
    @Parameters(index = "0", paramLabel = "<run-a>", description = "The reference run: its folder (as dsload run"
            + " made it) or its results file.")
    private Path runA;

    @Parameters(index = "1", paramLabel = "<run-b>", description = "The run judged against it: its folder or"
            + " results file.")
    private Path runB;

    @Option(names = "--out", paramLabel = "<dir>", description = "Write compare.txt, compare.json and the chart here"
            + " (default: the folder of run B's results file).")
    private Path outDir;

    @Option(names = "--alpha", paramLabel = "<p>", description = "The test's significance level: a change whose"
            + " p-value is below it is beyond the noise (default: 0.01).")
    private double alpha = RunComparison.DEFAULT_ALPHA;

    @Option(names = "--min-change", paramLabel = "<percent>", converter = OptionValues.Ratio.class,
            description = "A change beyond the noise is a regression only when the whole run's figure moved by more"
                    + " than this (default: 10%%).")
    private double minChange = RunComparison.DEFAULT_MIN_CHANGE;

    @Override
    public Integer call() throws IOException {
        if (!(alpha > 0 && alpha < 1)) {
            throw usageError("--alpha lies between 0 and 1, such as 0.01 or 0.05");
        }
        RunComparison.Run a = read(runA);
        RunComparison.Run b = read(runB);
        RunComparison comparison;
        try {
            comparison = RunComparison.of(a, b, alpha, minChange);
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
        String text = comparison.text();
        out().print(text);
        Path dir = outDir != null ? outDir : b.jtl().toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("compare.txt"), text, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compare.json"), comparison.json(), StandardCharsets.UTF_8);
        Path chart = ComparisonChart.write(comparison, dir);
        out().println("dsload: wrote " + dir.resolve("compare.txt") + ", compare.json and " + chart.getFileName());
        return comparison.regressed() ? ExitCodes.FAILED : ExitCodes.OK;
    }

    /** A run's results, or a usage error saying why there are none. */
    private RunComparison.Run read(Path run) {
        try {
            return RunComparison.Run.read(run);
        } catch (IOException e) {
            throw usageError(e.getMessage());
        }
    }
}
