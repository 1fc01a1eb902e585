package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.core.format.TimingValue;
import org.dsload.report.RunCharts;
import org.dsload.report.RunReport;
import org.dsload.report.RunResults;
import org.dsload.report.Summary;
import org.dsload.report.SummaryJson;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsload summary}: the exact summary of a results file, printed and optionally written. */
@Command(name = "summary", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print the summary of a run (its folder, or its JMeter CSV results file); with --out also"
                + " write summary.txt, summary.json and the PNG charts."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, "  1:the results file is missing or cannot be read", ExitCodes.USAGE_LINE})
final class SummaryCommand extends Subcommand {
    @Parameters(paramLabel = "<run>", description = "A run folder (dsload run's, either recording mode) or a JMeter"
            + " results file in CSV.")
    private Path run;

    @Option(names = "--out", paramLabel = "<dir>", description = "Also write summary.txt, summary.json and the charts here.")
    private Path outDir;

    @Option(names = "--late-ms", paramLabel = "<ms>", converter = OptionValues.MillisAsMicros.class,
            description = "An arrival that starts later than this after its intended start is late (default: "
                    + TimingValue.DEFAULT_LATE_MICROS / 1000 + ").")
    private long lateMicros = TimingValue.DEFAULT_LATE_MICROS;

    @Override
    public Integer call() throws IOException {
        Path jtl = RunResults.find(run);
        PrintStream out = out();
        Summary summary = Summary.of(jtl, lateMicros);
        Path runDir = jtl.toAbsolutePath().getParent();
        String text = RunReport.render(runDir, summary);
        out.print(text);
        if (outDir != null) {
            Files.createDirectories(outDir);
            Files.writeString(outDir.resolve("summary.txt"), text, StandardCharsets.UTF_8);
            Files.writeString(outDir.resolve("summary.json"), SummaryJson.render(summary), StandardCharsets.UTF_8);
            for (Path chart : RunCharts.write(jtl, runDir, outDir)) {
                out.println("dsload: chart " + chart);
            }
        }
        return ExitCodes.OK;
    }
}
