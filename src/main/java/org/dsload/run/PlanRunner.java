package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.dsload.core.format.RunProperties;
import org.dsload.process.Folders;
import org.dsload.process.Ports;
import org.dsload.process.JMeterJvm;
import org.dsload.recording.ResultsPlan;
import org.dsload.report.RunCharts;
import org.dsload.report.RunReport;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;
import org.dsload.report.SummaryJson;

/**
 * Runs a plan headless in a JMeter process ({@link JMeterCommand}, {@link JMeterProcess}) and
 * leaves in {@code results/<run-id>/} ({@link RunFolder}): the JTL, JMeter's log and console
 * output, its HTML dashboard, and the dsload summary (text and JSON) and charts; then judges how
 * the run ended ({@link RunJudge}).
 */
public final class PlanRunner {
    private static final Duration DASHBOARD_LIMIT = Duration.ofMinutes(5);
    /** A second signal gives JMeter this long to write the results it holds. */
    private static final Duration AT_ONCE = Duration.ofSeconds(2);

    private final PrintStream console;
    private RunSignals signals;

    public PlanRunner(PrintStream console) {
        this.console = console;
    }

    /** Stops the run in order on these signals, and reports it as interrupted. */
    public PlanRunner stopOn(RunSignals caught) {
        this.signals = caught;
        return this;
    }

    /** Where a run left its files, how JMeter and the run ended, and the summary if there were samples. */
    /**
     * @param onlyArrivalsUnsent the run's one finding is scheduled arrivals it did not send (a machine
     *                           too busy for the rate): the load ran, but not at the plan's pace
     */
    public record Outcome(Path dir, Path jtl, int exitCode, boolean timedOut, Summary summary, Ending ending,
            String problem, boolean onlyArrivalsUnsent) {
        public Outcome(Path dir, Path jtl, int exitCode, boolean timedOut, Summary summary, Ending ending,
                String problem) {
            this(dir, jtl, exitCode, timedOut, summary, ending, problem, false);
        }

        public boolean ok() {
            return ending == Ending.OK;
        }
    }

    public Outcome run(PlanRun run) throws IOException, InterruptedException {
        Path jar = JMeterJvm.launcherJar(run.jmeterHome);
        if (!Files.isRegularFile(run.plan)) {
            throw new IOException("no plan at " + run.plan);
        }
        if (run.distributed()) {
            DistributedRun.checkNoLiteralSecrets(run);
        }
        Path dir = RunFolder.create(run);
        Path jtl = dir.resolve(RunFolder.planName(run) + ".jtl");
        Path scratch = ScratchFolder.create();
        DistributedRun distributed = null;
        ResultsPlan results = null;
        try {
            results = ResultsPlan.prepare(run.plan, jtl, run.properties);
            RunFolder.writeRecord(run, dir);
            String refused = TimestampFormat.refusal(run, console);
            if (refused == null) {
                String planText = Files.readString(run.plan, StandardCharsets.UTF_8);
                refused = PropertyValues.refusal(run, planText);
                PropertyValues.unread(run, planText).forEach(line -> console.println("dsload: " + line));
            }
            if (refused != null) {
                return new Outcome(dir, jtl, -1, false, null, Ending.REFUSED, refused);
            }
            if (run.distributed()) {
                distributed = DistributedRun.prepare(run, dir, console);
                if (distributed.problem() != null) {
                    return new Outcome(dir, jtl, -1, false, null, Ending.REFUSED, distributed.problem());
                }
            }
            String portRefused = metricsPortRefusal(run);
            if (portRefused != null) {
                console.println("dsload: " + portRefused);
                return new Outcome(dir, jtl, -1, false, null, Ending.REFUSED, portRefused);
            }
            if (signals != null && signals.caught()) {
                return new Outcome(dir, jtl, -1, false, null, Ending.INTERRUPTED, "the run was interrupted (SIG"
                        + signals.signalName() + ") before JMeter started");
            }
            JMeterProcess jmeter = JMeterProcess.start(JMeterCommand.headless(run, jar, dir, scratch, distributed,
                    results), dir, dir.resolve("jmeter.out"), console,
                    "tty".equals(run.properties.get(RunProperties.PROGRESS)));
            console.println("dsload: running " + run.plan + " -> " + dir + " (JMeter pid " + jmeter.pid() + ")");
            if (signals != null) {
                signals.stopping(new RunSignals.Stopper() {
                    @Override
                    public void askToStop() {
                        jmeter.stop(JMeterProcess.ASKED_STOP_LIMIT);
                    }

                    @Override
                    public void stopAtOnce() {
                        jmeter.stopWithin(AT_ONCE);
                    }
                });
            }
            if (distributed != null) {
                distributed.watch(jmeter.process(), dir.resolve("jmeter.log"));
            }
            boolean timedOut = !jmeter.await(run.timeout);
            if (timedOut) {
                console.println("dsload: " + run.plan + " ran past its time limit of " + run.timeout.toSeconds()
                        + " s; stopping JMeter (pid " + jmeter.pid() + ")");
                jmeter.stop(JMeterProcess.ASKED_STOP_LIMIT);
            }
            int exit = jmeter.exitCode();
            String signal = null;
            if (signals != null) {
                signals.stopping(null);
                signal = signals.signalName();
            }
            boolean stoppedOnPurpose = timedOut || signal != null;
            if (distributed != null) {
                distributed.runEnded(results.histograms());
                stoppedOnPurpose |= distributed.masterStoppedByWatch();
                distributed.gatherRecordings(results.histograms());
            }
            boolean dashboard = results.dashboardByJMeter(run.dashboard) || results.dashboardAfterRun(run.dashboard);
            return finish(new Ended(jar, dir, jtl, scratch, exit, timedOut, stoppedOnPurpose, signal,
                    run.faultsExpected()), dashboard, run.charts, distributed);
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

    /**
     * Why the master cannot serve its metrics on the run's {@value RunProperties#METRICS_PORT}, or
     * null: a port in use refuses the run before any load, rather than a run nobody can watch.
     */
    static String metricsPortRefusal(PlanRun run) {
        String value = run.properties.get(RunProperties.METRICS_PORT);
        if (value == null || value.isBlank() || value.trim().equals("0")) {
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return RunProperties.METRICS_PORT + " must be a port number (1 to 65535), got '" + value + "'";
        }
        if (port < 1 || port > 65535) {
            return RunProperties.METRICS_PORT + " must be a port number (1 to 65535), got " + port;
        }
        if (!Ports.isFree("0.0.0.0", port)) {
            return "cannot serve metrics on port " + port + ": it is in use on this machine; choose another with"
                    + " --metrics-port (or -J" + RunProperties.METRICS_PORT + "), or 0 for none";
        }
        return null;
    }

    /** What the runner knows when JMeter has ended. */
    private record Ended(Path jar, Path dir, Path jtl, Path scratch, int exit, boolean timedOut, boolean stoppedOnPurpose,
            String signal, boolean faultsExpected) {
    }

    /**
     * @param dashboard whether the run wants JMeter's dashboard: made here when JMeter did not make it
     * @param charts whether the run wants its PNG charts
     */
    private Outcome finish(Ended e, boolean dashboard, boolean charts, DistributedRun distributed)
            throws IOException, InterruptedException {
        Path dir = e.dir();
        Path jtl = e.jtl();
        String resultsProblem = null;
        String slavesProblem = null;
        Summary summary = null;
        String notLoaded = null;
        if (!Files.isRegularFile(jtl) || Files.size(jtl) == 0) {
            notLoaded = RunFolder.planNotLoaded(dir);
            resultsProblem = notLoaded != null ? notLoaded
                    : "JMeter wrote no results (" + jtl + "); see " + RunFolder.seeLog(dir) + RunFolder.remoteErrors(dir);
        } else {
            try {
                summary = Summary.of(jtl);
                if (summary.total().samples() == 0) {
                    resultsProblem = "the run produced no samples; see " + RunFolder.seeLog(dir) + RunFolder.remoteErrors(dir);
                } else if (distributed != null) {
                    slavesProblem = distributed.checkResults(summary);
                }
            } catch (IOException ex) {
                resultsProblem = "cannot read " + jtl + ": " + ex.getMessage();
            }
        }
        RunJudge.Verdict verdict = RunJudge.judge(new RunJudge.Facts(dir, summary, resultsProblem,
                RunFolder.slavesRefused(dir) || notLoaded != null, e.exit(), e.timedOut(), e.stoppedOnPurpose(), slavesProblem, e.signal(),
                e.faultsExpected()));
        if (summary != null) {
            boolean samples = summary.total().samples() > 0 || !summary.faultMarkers().isEmpty();
            if (dashboard && samples && !DashboardNote.exists(dir)) {
                dashboard(e.jar(), dir, jtl, e.scratch().resolve(JMeterCommand.PROPERTIES_FILE));
            }
            boolean noted = DashboardNote.add(dir, summary);
            Files.writeString(dir.resolve("summary.txt"), RunReport.render(dir, summary)
                    + RunEndText.of(verdict, noted ? DashboardNote.README : null), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("summary.json"), SummaryJson.render(summary), StandardCharsets.UTF_8);
            if (charts) {
                charts(jtl, dir);
            }
        }
        if (distributed != null) {
            for (SlaveRoster.Entry gone : distributed.lost()) {
                console.println("dsload: slave " + gone.address() + (gone.state() == SlaveRoster.State.STALLED
                        ? " stalled during the run, and the run ended without it: " : " was lost during the run: ")
                        + gone.detail() + " (see the Slaves section of the summary)");
            }
        }
        if (verdict.ending() != Ending.REFUSED) {
            RunFolder.linkLatest(dir);
        }
        return new Outcome(dir, jtl, e.exit(), e.timedOut(), summary, verdict.ending(), verdict.problem(),
                verdict.onlyArrivalsUnsent());
    }

    /** The HTML dashboard from the results file, for a JMeter that was stopped before it made one. */
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
