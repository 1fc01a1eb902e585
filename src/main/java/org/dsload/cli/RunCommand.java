package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordMode;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.run.RunSignals;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsload run}: a plan, headless, into a run folder with its JTL, log, dashboard and summary. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a plan headless into <results>/<run-id>/: results file (JTL), jmeter.log,"
                + " HTML dashboard, summary and charts. With slaves (--slaves, -R, --hosts-file) the run is"
                + " distributed and every -J property goes to the slaves too."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:the run finished with results", "  1:the run failed (no results, JMeter failed, timed out,"
                + " an element found it failed, a slave's recordings not fetched ...)", ExitCodes.USAGE_LINE, ExitCodes.LIMITS_BROKEN_LINE, ExitCodes.NO_SUCCESS_LINE,
            ExitCodes.STORE_FAILED_LINE, ExitCodes.LOAD_INCOMPLETE_LINE, ExitCodes.REFUSED_LINE, "130:interrupted (Ctrl-C): the summary covers what was recorded; 143 after SIGTERM"})
final class RunCommand extends Subcommand {
    @Parameters(paramLabel = "<plan.jmx>", description = "The test plan.")
    private Path plan;

    @Mixin
    private JMeterHomeOption jmeterHome;

    @Mixin
    private ResultsOptions results;

    @Option(names = "--timeout", paramLabel = "<seconds>", converter = OptionValues.Seconds.class,
            description = "Stop the run when it has not ended after this many seconds (default: no limit).")
    private Duration timeout;

    @Option(names = "--no-dashboard", description = "Skip JMeter's HTML dashboard.")
    private boolean noDashboard;

    @Option(names = "--no-charts", description = "Skip the PNG charts (the summary and summary.json are written all the same).")
    private boolean noCharts;

    @Option(names = "--record", paramLabel = "rows|histograms", converter = OptionValues.Record.class,
            description = "What every engine records of its samples: rows (a results row per sample, the default) or"
                    + " histograms (HdrHistogram interval logs per label, one results row per label and second); the"
                    + " JMeter property " + RunProperties.RECORD + ".")
    private RecordMode record;

    @Option(names = "--expect-faults", description = "The store will fail during the run (a fault test that kills or"
            + " freezes nodes): its outages and failures are reported as expected and do not fail the run; the JMeter"
            + " property " + RunProperties.EXPECT_FAULTS + "=true.")
    private boolean expectFaults;

    @Option(names = "--give-up-after", paramLabel = "<seconds>", converter = OptionValues.SecondsOrNever.class,
            description = "Stop the test early once no request has succeeded for this long while requests fail"
                    + " (default 60; 0: run to the planned end); the JMeter property " + RunProperties.GIVE_UP_AFTER + ".")
    private Long giveUpAfter;

    @Mixin
    private StopWhenOption stopWhen;

    @Mixin
    private LiveOptions live;

    @Mixin
    private PropertyOptions properties;

    @Mixin
    private SlaveSelectionOptions slaves;

    @Mixin
    private RemoteDirOption remoteDir;

    @Override
    public Integer call() throws IOException, InterruptedException {
        String badCondition = stopWhen.problem(properties);
        if (badCondition != null) {
            throw usageError(badCondition);
        }
        String badSlaves = slaves.problem(properties);
        if (badSlaves != null) {
            throw usageError(badSlaves);
        }
        String badLive = live.problem();
        if (badLive != null) {
            throw usageError(badLive);
        }
        PlanRun run = new PlanRun(jmeterHome.home(), plan).resultsRoot(results.root).runId(results.runId)
                .timeout(timeout).dashboard(!noDashboard).charts(!noCharts).remoteDir(remoteDir.dir());
        slaves.applyTo(run);
        if (expectFaults) {
            run.property(RunProperties.EXPECT_FAULTS, "true");
        }
        if (giveUpAfter != null) {
            run.property(RunProperties.GIVE_UP_AFTER, Long.toString(giveUpAfter));
        }
        live.applyTo(run);
        properties.applyTo(run);
        stopWhen.applyTo(run, properties);
        if (record != null) {
            run.property(RunProperties.RECORD, record.value());
        }
        PrintStream out = out();
        try (RunSignals signals = RunSignals.catching(out)) {
            PlanRunner.Outcome outcome = new PlanRunner(out).stopOn(signals).run(run);
            if (outcome.summary() != null) {
                out.println();
                out.print(Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8));
            }
            out.println();
            out.println("dsload: results in " + outcome.dir());
            if (!outcome.ok()) {
                // the summary ends with the reasons already; without one, they are said here
                String problem = outcome.problem();
                out.println("dsload: " + (outcome.summary() == null ? problem
                        : problem.lines().findFirst().orElse(problem).replaceFirst(":$", "; why is said above")));
            }
            return ExitCodes.of(outcome.ending(), signals.exitCode());
        }
    }
}
