package org.dsload.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterThread;
import org.apache.jmeter.threads.SamplePackage;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ConfigException;
import org.dsload.core.Fields;
import org.dsload.core.Results;
import org.dsload.core.ThreadListeners;
import org.dsload.core.format.RunProperties;
import org.dsload.core.format.RunVerdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One test's run of a Fault Schedule in this engine: the checked plan, the timeline, the faults in
 * force, and the samples that record them.
 */
final class ScheduleRun {
    static final String APPLIED = "APPLIED";
    static final String APPLY_FAILED = "APPLY_FAILED";
    static final String REVERTED = "REVERTED";
    static final String REVERT_FAILED = "REVERT_FAILED";
    static final String NOT_APPLIED = "NOT_APPLIED";
    private static final Logger log = LoggerFactory.getLogger(ScheduleRun.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final long SLICE_MS = 100;
    /**
     * Why a schedule refuses a test whose thread groups run one after another, rather than warn:
     * every fault is reverted before the schedule's thread group ends, so in such a test no fault
     * is ever in force while load runs, and its fault phases would compare nothing.
     */
    static final String CONSECUTIVE = "its faults cannot overlap the load: the Test Plan runs its thread groups "
            + "consecutively (Run Thread Groups consecutively), so this schedule's thread group runs before or after "
            + "the others and its faults would hit no load. Untick that box in the Test Plan. The test was stopped "
            + "before its thread groups started.";

    private final String name;
    private final boolean designated;
    private final String refusal;
    private final List<PlannedFault> plan;
    private final FaultSpec.Settings settings;
    private final boolean endWithLoad;
    private long endTestAfterMillis = -1;
    private final Path runDir;
    private final FaultEventLog events;
    private final Map<Integer, String> inForce = new HashMap<>();
    private Timeline timeline;
    /** The listeners of the schedule's thread, for what is reverted after it ended (guarded by this). */
    private ThreadListeners listeners;
    private volatile boolean interrupted;
    private boolean sawLoad;
    private boolean finished;

    private ScheduleRun(String name, boolean designated, String refusal, List<PlannedFault> plan,
            FaultSpec.Settings settings, boolean endWithLoad, Path runDir) {
        this.name = name;
        this.designated = designated;
        this.refusal = refusal;
        this.plan = plan;
        this.settings = settings;
        this.endWithLoad = endWithLoad;
        this.runDir = runDir;
        this.events = new FaultEventLog(runDir);
    }

    /** Checks the schedule at test start; a bad one is refused here, before any fault is applied. */
    static ScheduleRun prepare(FaultSchedule s, String host) {
        Fields f = new Fields(FaultSchedule.class, s.getName());
        String runDirText = property(RunProperties.RUN_DIR);
        Path runDir = runDirText == null || runDirText.isBlank() ? null : Path.of(runDirText.trim());
        String engine = f.text("engine", s.getEngine());
        boolean designated = host == null || engine.equals(host.trim());
        String refusal = null;
        if (host != null && engine.isEmpty()) {
            designated = true; // every engine says so: the test must not start with faults applied N times
            refusal = f.error("engine", "is empty, so every jmeter-server of this distributed run would apply the "
                    + "faults: name the one that injects them (its host:port as the master reached it), or set "
                    + RunProperties.FAULTS_ENGINE + " (dsload run sets it to its first slave)").getMessage();
        }
        List<PlannedFault> plan = List.of();
        long endTestAfter = -1;
        FaultSpec.Settings settings = FaultSpec.Settings.defaults();
        boolean endWithLoad = true;
        if (designated && refusal == null) {
            try {
                settings = new FaultSpec.Settings(f.text("proxyControl", s.getProxyControl()),
                        f.text("commandPrefix", s.getCommandPrefix()), templates(f, s.getCommandTemplates()),
                        f.integer("commandTimeout", s.getCommandTimeout(), 1, 3600) * 1000L,
                        f.integer("readyTimeout", s.getReadyTimeout(), 1, 3600) * 1000L);
                endWithLoad = f.flag("endWithLoad", s.getEndWithLoad());
                plan = plan(f, s);
                endTestAfter = endTestAfter(f, s.getEndTestAfter());
            } catch (ConfigException e) {
                refusal = e.getMessage();
            }
        }
        boolean consecutive = refusal == null && ConsecutiveGroups.inThisEngine().orElse(false);
        if (consecutive) {
            refusal = "dsload Fault Schedule '" + s.getName() + "': " + CONSECUTIVE;
        }
        if (refusal != null) {
            log.error("dsload: {}", refusal);
            System.err.println("dsload: " + refusal); // NOSONAR the console is where a headless user looks
            if (consecutive) {
                refuseTheTest(runDir, designated, s.getName(), host);
            }
        } else if (designated) {
            log.info("dsload: fault schedule '{}' runs in this engine{}: {}", s.getName(), host == null ? "" : " (" + host + ")",
                    plan.stream().map(PlannedFault::describe).toList());
        }
        ScheduleRun run = new ScheduleRun(s.getName(), designated, refusal, plan, settings, endWithLoad, runDir);
        run.endTestAfterMillis = endTestAfter;
        return run;
    }

    /** Leaves the refusal for the runner (once, from the injecting engine) and ends the test before its load. */
    private static void refuseTheTest(Path runDir, boolean designated, String name, String host) {
        if (designated && runDir != null) {
            try {
                RunVerdict.refuse(runDir, "dsload Fault Schedule '" + name + "'", host == null ? "master" : host,
                        CONSECUTIVE);
            } catch (IOException e) {
                log.warn("dsload: cannot write {} in {}: {}", RunVerdict.FILE, runDir, e.toString());
            }
        }
        ConsecutiveGroups.stopBeforeTheLoad();
    }

    private static long endTestAfter(Fields f, String text) {
        String t = f.text("endTestAfter", text);
        if (t.isEmpty()) {
            return -1;
        }
        try {
            return Quantities.millis(t);
        } catch (IllegalArgumentException e) {
            throw f.error("endTestAfter", e.getMessage());
        }
    }

    private static Map<String, String> templates(Fields f, String text) {
        try {
            return CommandTemplates.parse(text);
        } catch (IllegalArgumentException e) {
            throw f.error("commandTemplates", e.getMessage());
        }
    }

    private static List<PlannedFault> plan(Fields f, FaultSchedule s) {
        Map<String, Target> targets;
        try {
            targets = Target.parseAll(s.getTargets());
        } catch (IllegalArgumentException e) {
            throw f.error("targets", e.getMessage());
        }
        String networkDefault = f.choice("networkDriver", s.getNetworkDriver(), "proxy", "command");
        String processDefault = f.choice("processDriver", s.getProcessDriver(), "process", "command");
        List<PlannedFault> plan = new ArrayList<>();
        int n = 0;
        List<FaultLine> rows;
        try {
            rows = FaultLine.parseAll(f.text("faults", s.getFaults()));
        } catch (IllegalArgumentException e) {
            throw f.error("faults", e.getMessage());
        }
        for (FaultLine row : rows) {
            n++;
            String where = "fault " + n + " (" + row.kind() + " on " + row.target() + ")";
            try {
                FaultKind kind = FaultKind.parse(row.kind());
                Target target = targets.get(row.target().trim());
                if (target == null) {
                    throw new IllegalArgumentException("names target '" + row.target().trim()
                            + "', which the Targets field does not define (it has " + targets.keySet() + ")");
                }
                Map<String, String> params = new HashMap<>(Target.keyValues(row.parameters()));
                String own = params.remove("driver");
                StartSpec start = StartSpec.parse(row.start());
                if (start.kind() == StartSpec.Kind.AFTER && (start.afterFault() < 1 || start.afterFault() >= n)) {
                    throw new IllegalArgumentException("starts after fault " + start.afterFault()
                            + ", which is not an earlier line");
                }
                long duration = kind == FaultKind.RESTART && row.duration().isBlank() ? 0
                        : Quantities.millis(row.duration());
                if (duration <= 0 && kind != FaultKind.RESTART) {
                    throw new IllegalArgumentException("needs a duration above 0 (how long the fault stays in force)");
                }
                plan.add(new PlannedFault(n, kind, target, params, start, duration,
                        Drivers.choose(kind, own, networkDefault, processDefault)));
            } catch (IllegalArgumentException e) {
                throw f.error("faults", where + ": " + e.getMessage());
            }
        }
        if (plan.isEmpty()) {
            throw f.error("faults", "has no fault");
        }
        return plan;
    }

    boolean designated() {
        return designated;
    }

    String refusal() {
        return refusal;
    }

    synchronized boolean finished() {
        return finished;
    }

    void interrupt() {
        interrupted = true;
    }

    /**
     * Waits for the schedule's next event and carries it out.
     *
     * @return its sample, or null when the schedule is over
     */
    SampleResult next() {
        synchronized (this) {
            if (timeline == null) {
                timeline = new Timeline(plan, System.currentTimeMillis());
                listeners = ThreadListeners.ofThisThread();
            }
        }
        while (true) {
            Timeline.Event e;
            synchronized (this) {
                e = timeline.next(FaultTriggers::fired);
                if (e == null && endTestAfterMillis < 0) {
                    finished = true;
                    return null;
                }
            }
            if (e == null) {
                endTestAfterRecovery();
                synchronized (this) {
                    finished = true;
                }
                return null;
            }
            long now = System.currentTimeMillis();
            if (interrupted || loadEnded()) {
                return stopNow(interrupted ? "the test was stopped" : "the load ended");
            }
            if (now < e.due()) {
                sleep(Math.min(SLICE_MS, e.due() - now));
                continue;
            }
            return e.apply() ? apply(e.fault()) : revert(e.fault(), "its time is up");
        }
    }

    /** Waits the recovery phase after the last revert, then asks every thread of the test to stop. */
    private void endTestAfterRecovery() {
        long due = timeline.lastEnd() + endTestAfterMillis;
        while (!interrupted && !loadEnded() && System.currentTimeMillis() < due) {
            sleep(Math.min(SLICE_MS, due - System.currentTimeMillis()));
        }
        var engine = JMeterContextService.getContext().getEngine();
        if (engine != null && !interrupted) {
            log.info("dsload: {}: the last fault ended {} ago: stopping the test", name, Quantities.format(endTestAfterMillis));
            engine.askThreadsToStop();
        }
    }

    /** True once the load's threads, which this engine has seen, have all ended. */
    private boolean loadEnded() {
        if (!endWithLoad) {
            return false;
        }
        int threads = JMeterContextService.getNumberOfThreads();
        if (threads > 1) {
            sawLoad = true;
        }
        return sawLoad && threads <= 1;
    }

    private SampleResult stopNow(String why) {
        List<SampleResult> results = new ArrayList<>();
        synchronized (this) {
            List<PlannedFault> skipped = timeline.waiting();
            timeline.skipWaiting(System.currentTimeMillis());
            if (!skipped.isEmpty()) {
                log.info("dsload: {}: {} fault(s) not applied because {}", name, skipped.size(), why);
                events.add(System.currentTimeMillis(), "skipped", skipped.stream().map(PlannedFault::label).toList().toString(),
                        "", why);
            }
            for (PlannedFault f : timeline.inForce()) {
                results.add(revert(f, why));
            }
            finished = true;
        }
        if (results.isEmpty()) {
            return null;
        }
        for (int i = 1; i < results.size(); i++) {
            emit(results.get(i));
        }
        return results.get(0);
    }

    private synchronized SampleResult apply(PlannedFault f) {
        SampleResult r = Results.create(f.label());
        r.setSamplerData(f.describe());
        String id = newId();
        FaultSpec spec = new FaultSpec(id, f.kind(), f.target(), f.params(), f.durationMillis(), settings);
        events.add(System.currentTimeMillis(), "apply", f.label(), "", f.describe());
        r.sampleStart();
        try {
            FaultDriver.Applied applied = f.driver().apply(spec);
            try {
                if (!f.instant()) {
                    AppliedFaults.add(applied.record(), runDir);
                    inForce.put(f.number(), id);
                }
            } catch (java.io.IOException e) {
                AppliedFaults.Reverted back = AppliedFaults.revertRecord(applied.record());
                throw new IllegalStateException("cannot keep the record that lets a crash be undone (" + e.getMessage()
                        + "), so the fault was reverted at once" + (back.ok() ? "" : ", and that FAILED: " + back.message()));
            }
            r.sampleEnd();
            Results.succeed(r, APPLIED, applied.message());
            Results.text(r, applied.record().fields().toString());
        } catch (Exception e) {
            r.sampleEnd();
            Results.fail(r, APPLY_FAILED, f.label() + " could not be applied: " + org.dsload.core.Errors.describe(e));
        }
        timeline.applied(f, System.currentTimeMillis());
        events.add(r.getEndTime(), "applied", f.label(), r.getResponseCode(), r.getResponseMessage());
        return r;
    }

    private synchronized SampleResult revert(PlannedFault f, String why) {
        SampleResult r = Results.create(f.label());
        r.setSamplerData("revert " + f.describe() + ": " + why);
        String id = inForce.remove(f.number());
        r.sampleStart();
        if (id == null) {
            r.sampleEnd();
            Results.succeed(r, NOT_APPLIED, "nothing to revert: the fault was not applied");
        } else {
            AppliedFaults.Reverted back = AppliedFaults.revert(id);
            r.sampleEnd();
            if (back == null) {
                Results.succeed(r, REVERTED, "already reverted");
            } else if (back.ok()) {
                Results.succeed(r, REVERTED, back.message() + " (" + why + ")");
            } else {
                Results.fail(r, REVERT_FAILED, f.label() + " could not be reverted: " + back.message()
                        + "; its record stays for 'dsload revert'");
            }
        }
        timeline.over(f, System.currentTimeMillis());
        events.add(r.getEndTime(), "reverted", f.label(), r.getResponseCode(), r.getResponseMessage());
        return r;
    }

    /** At the end of the schedule's thread: reverts what is still in force, with samples. */
    void revertInThread() {
        List<SampleResult> results = new ArrayList<>();
        synchronized (this) {
            if (timeline == null) {
                return;
            }
            for (PlannedFault f : timeline.inForce()) {
                results.add(revert(f, "the schedule's thread ended"));
            }
        }
        results.forEach(ScheduleRun::emit);
    }

    /**
     * At test end: anything still in force is reverted. The schedule's thread is gone, but its
     * listeners still take samples (JMeter ends the results writer, and on a slave the sender to
     * the master, after the elements of the thread groups): each revert's sample goes to them, so
     * the results file and the master's live figures hear of it; the event log has it too.
     */
    synchronized void testEnded() {
        if (timeline == null) {
            return;
        }
        for (PlannedFault f : timeline.inForce()) {
            SampleResult r = revert(f, "the test ended");
            log.warn("dsload: {} reverted at test end: {} {}", f.label(), r.getResponseCode(), r.getResponseMessage());
            if (listeners != null) {
                listeners.deliver(r);
            }
        }
    }

    /** Hands a further sample to the listeners of the schedule's thread, as JMeter does with the one sample() returns. */
    static void emit(SampleResult result) {
        JMeterContext ctx = JMeterContextService.getContext();
        JMeterThread thread = ctx.getThread();
        Object pack = ctx.getVariables() == null ? null : ctx.getVariables().getObject(JMeterThread.PACKAGE_OBJECT);
        if (thread == null || !(pack instanceof SamplePackage samplePackage)) {
            log.warn("dsload: {} {} could not be recorded as a sample (no sampler context)", result.getSampleLabel(),
                    result.getResponseCode());
            return;
        }
        result.setThreadName(thread.getThreadName());
        result.setAllThreads(JMeterContextService.getNumberOfThreads());
        if (ctx.getThreadGroup() != null) {
            result.setGroupThreads(ctx.getThreadGroup().getNumberOfThreads());
        }
        String group = ctx.getThreadGroup() == null ? "" : ctx.getThreadGroup().getName();
        thread.getNotifier().notifyListeners(new SampleEvent(result, group, ctx.getVariables()),
                samplePackage.getSampleListeners());
    }

    /** Unique on this machine and sorted by time: names the fault's record and whatever the fault creates. */
    static String newId() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT)) + "-"
                + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
    }

    private static String property(String name) {
        return JMeterUtils.getJMeterProperties() == null ? null : JMeterUtils.getProperty(name);
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(Math.max(1, millis));
        } catch (InterruptedException e) {
            interrupted = true;
        }
    }
}
