package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.dsload.process.Folders;
import org.dsload.recording.ResultsPlan;
import org.dsload.report.RunCharts;
import org.dsload.report.RunReport;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;
import org.dsload.report.SummaryJson;

/**
 * Runs a plan headless in a JMeter process ({@link JMeterCommand}, {@link JMeterProcess}) and
 * leaves in {@code results/<run-id>/} ({@link RunFolder}): the JTL, JMeter's log and console
 * output, its HTML dashboard, and the dsload summary (text and JSON) and charts.
 */
public final class PlanRunner {
    /** JMeter property naming the run's folder, for elements that leave files next to the JTL. */
    public static final String RUN_DIR_PROPERTY = "dsload.run_dir";
    private static final Duration DASHBOARD_LIMIT = Duration.ofMinutes(5);

    private final PrintStream console;

    public PlanRunner(PrintStream console) {
        this.console = console;
    }

    /** Where a run left its files, how JMeter ended, and the summary if there were samples. */
    public record Outcome(Path dir, Path jtl, int exitCode, boolean timedOut, Summary summary, String problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    public Outcome run(PlanRun run) throws IOException, InterruptedException {
        Path jar = JMeterCommand.launcherJar(run.jmeterHome);
        if (!Files.isRegularFile(run.plan)) {
            throw new IOException("no plan at " + run.plan);
        }
        if (run.distributed()) {
            DistributedRun.checkNoLiteralSecrets(run);
        }
        Path dir = RunFolder.create(run);
        Path jtl = dir.resolve(RunFolder.planName(run) + ".jtl");
        Path scratch = Files.createTempDirectory("dsload-run-");
        DistributedRun distributed = null;
        ResultsPlan results = null;
        try {
            results = ResultsPlan.prepare(run.plan, jtl, run.properties, console);
            RunFolder.writeRecord(run, dir);
            if (run.distributed()) {
                distributed = DistributedRun.prepare(run, dir, console);
                if (distributed.problem() != null) {
                    console.println("dsload: " + distributed.problem());
                    RunFolder.linkLatest(dir);
                    return new Outcome(dir, jtl, -1, false, null, distributed.problem());
                }
            }
            console.println("dsload: running " + run.plan + " -> " + dir);
            JMeterProcess jmeter = JMeterProcess.start(JMeterCommand.headless(run, jar, dir, scratch, distributed,
                    results), dir, dir.resolve("jmeter.out"), console);
            if (distributed != null) {
                distributed.watch(jmeter.process(), dir.resolve("jmeter.log"));
            }
            boolean timedOut = !jmeter.await(run.timeout);
            if (timedOut) {
                console.println("dsload: " + run.plan + " ran past its time limit of " + run.timeout.toSeconds()
                        + " s; stopping JMeter (pid " + jmeter.pid() + ")");
                jmeter.stop();
            }
            int exit = jmeter.exitCode();
            boolean stoppedForLostSlave = false;
            if (distributed != null) {
                distributed.runEnded();
                stoppedForLostSlave = distributed.masterStoppedForLostSlave();
                distributed.gatherRecordings(results.histograms());
            }
            boolean dashboardLeftToUs = results.dashboardAfterRun(run.dashboard)
                    || stoppedForLostSlave && results.dashboardByJMeter(run.dashboard);
            if (dashboardLeftToUs && Files.isRegularFile(jtl)) {
                dashboard(jar, dir, jtl, scratch.resolve(JMeterCommand.PROPERTIES_FILE));
            }
            return finish(dir, jtl, exit, timedOut, distributed, stoppedForLostSlave);
        } finally {
            if (distributed != null) {
                distributed.close();
            }
            if (results != null) {
                results.close();
            }
            Folders.deleteTree(scratch);
        }
    }

    private Outcome finish(Path dir, Path jtl, int exit, boolean timedOut, DistributedRun distributed,
            boolean stoppedForLostSlave) throws IOException {
        String problem = null;
        Summary summary = null;
        if (!Files.isRegularFile(jtl) || Files.size(jtl) == 0) {
            problem = "JMeter wrote no results (" + jtl + "); see " + dir.resolve("jmeter.log") + RunFolder.remoteErrors(dir);
        } else {
            try {
                summary = Summary.of(jtl);
                Files.writeString(dir.resolve("summary.txt"), RunReport.render(dir, summary), StandardCharsets.UTF_8);
                Files.writeString(dir.resolve("summary.json"), SummaryJson.render(summary), StandardCharsets.UTF_8);
                charts(jtl, dir);
                if (summary.total().samples() == 0) {
                    problem = "the run produced no samples; see " + dir.resolve("jmeter.log") + RunFolder.remoteErrors(dir);
                } else if (distributed != null) {
                    problem = distributed.checkResults(summary);
                }
            } catch (IOException e) {
                problem = "cannot read " + jtl + ": " + e.getMessage();
            }
        }
        if (problem == null && timedOut) {
            problem = "JMeter was stopped at the time limit";
        }
        // a master stopped on purpose exits with SIGTERM's code; its results file was checked above
        if (problem == null && exit != 0 && !stoppedForLostSlave) {
            problem = "JMeter exited with code " + exit + "; see " + dir.resolve("jmeter.log");
        }
        if (distributed != null) {
            for (SlaveRoster.Entry lost : distributed.lost()) {
                console.println("dsload: slave " + lost.address() + " was lost during the run: " + lost.detail()
                        + " (see the Slaves section of the summary)");
            }
        }
        RunFolder.linkLatest(dir);
        return new Outcome(dir, jtl, exit, timedOut, summary, problem);
    }

    /** The HTML dashboard from the results file, for a master that was stopped before it made one. */
    private void dashboard(Path jar, Path dir, Path jtl, Path properties) throws InterruptedException {
        try {
            String problem = JMeterProcess.runToEnd(JMeterCommand.dashboard(jar, dir, jtl, properties), dir,
                    dir.resolve("dashboard.out"), DASHBOARD_LIMIT);
            if (problem != null) {
                console.println("dsload: no HTML dashboard: " + problem + "; see " + dir.resolve("dashboard.log"));
            }
        } catch (IOException e) {
            console.println("dsload: no HTML dashboard: " + e.getMessage());
        }
    }

    /** Charts are a view of the results: a failure to draw them is reported, not a failed run. */
    private void charts(Path jtl, Path dir) {
        try {
            RunCharts.write(jtl, dir, dir);
        } catch (IOException | RuntimeException e) {
            console.println("dsload: charts not written: " + e);
        }
    }
}
