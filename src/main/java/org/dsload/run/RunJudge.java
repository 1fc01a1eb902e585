package org.dsload.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.dsload.core.Results;
import org.dsload.core.format.RunVerdict;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.report.Summary;

/**
 * Whether a run that went through JMeter succeeded, and if not, why, in the order a user needs to
 * know it: a signal that stopped it, a refusal at its start (a configuration an element refused,
 * which stopped the test at its first sample, or a {@code refused} line an element left in
 * {@link RunVerdict#FILE}), no successful sample at all, then anything else that failed it (no
 * results, JMeter's exit code, the time limit, slaves that sent nothing, {@code failed} lines),
 * then a stop condition an engine found broken ({@code limits-broken} lines), then a store that stopped answering or failed most requests, then a load that did not run as
 * planned (arrivals unsent, slaves lost or stalled; {@link RunHealth}).
 */
final class RunJudge {
    /** At most this many distinct refusal messages are quoted. */
    private static final int QUOTED = 5;

    /** What the runner knows once JMeter has ended. */
    /**
     * @param refusedAtStart true when JMeter could not load the plan or could not configure or start its
     *                       slaves, so that {@code resultsProblem} (no results) is a refusal at the start
     */
    /** @param faultsExpected the user said the store would fail during the run ({@value RunHealth#EXPECT_PROPERTY}) */
    record Facts(Path dir, Summary summary, String resultsProblem, boolean refusedAtStart, int jmeterExit,
            boolean timedOut, boolean stoppedOnPurpose, String slavesProblem, String signal, boolean faultsExpected) {
    }

    /**
     * The ending and, unless it is {@link Ending#OK}, what went wrong, one reason a line; and what
     * went wrong as the run expected (a fault test's outages), which does not change the ending.
     */
    record Verdict(Ending ending, String problem, List<String> expected, boolean onlyArrivalsUnsent) {
        Verdict(Ending ending, String problem, List<String> expected) {
            this(ending, problem, expected, false);
        }

        Verdict(Ending ending, String problem) {
            this(ending, problem, List.of());
        }
    }

    private RunJudge() {
    }

    static Verdict judge(Facts f) throws IOException {
        if (f.signal() != null) {
            return new Verdict(Ending.INTERRUPTED, "the run was interrupted (SIG" + f.signal() + "); the summary covers "
                    + "what was recorded until then");
        }
        List<String> refusals = new ArrayList<>(RunVerdict.refusals(f.dir()));
        if (f.refusedAtStart() && f.resultsProblem() != null) {
            refusals.add(f.resultsProblem());
        }
        Summary s = f.summary();
        if (s != null && s.total().statusCodes().getOrDefault(Results.CONFIG_ERROR, 0L) > 0) {
            Map<String, Set<String>> samples = configRefusals(s);
            // an element's refusal that its samples also carry is said once, with the labels it stopped
            refusals.removeIf(r -> samples.keySet().stream().anyMatch(m -> r.endsWith(": " + m)));
            samples.forEach((message, stopped) -> refusals.add(message + " (" + String.join(", ", stopped) + ")"));
        }
        if (!refusals.isEmpty()) {
            long ok = s == null ? 0 : s.total().successes();
            return new Verdict(Ending.REFUSED, "the run was refused at its start"
                    + (ok > 0 ? " (after " + ok + " successful requests)" : "") + ":" + lines(refusals));
        }
        // the measured window: a warm-up that succeeded does not make a run whose measured requests all failed
        if (s != null && s.measured().samples() > 0 && s.measured().successes() == 0) {
            return new Verdict(Ending.NO_SUCCESS, (s.hasWarmUp() ? "no request of the measured window succeeded: all "
                    : "no request succeeded: all ") + s.measured().requests()
                    + " failed (see the Error Set above and " + f.dir().resolve("jmeter.log") + ")");
        }
        RunHealth.Findings health = s == null || s.total().samples() == 0
                ? new RunHealth.Findings(List.of(), List.of(), List.of())
                : RunHealth.judge(f.dir(), s, f.faultsExpected());
        List<String> failures = new ArrayList<>();
        if (f.resultsProblem() != null) {
            failures.add(f.resultsProblem());
        }
        if (f.slavesProblem() != null) {
            failures.add(f.slavesProblem());
        }
        if (f.timedOut()) {
            failures.add("JMeter was stopped at the time limit");
        }
        // a master stopped on purpose exits with SIGTERM's code; its results file was checked above
        if (f.jmeterExit() != 0 && !f.timedOut() && !f.stoppedOnPurpose()) {
            // where to look is said once: a missing results file already names the log (or JMeter's own words)
            String see = RunFolder.seeLog(f.dir());
            boolean told = f.resultsProblem() != null && f.resultsProblem().contains(see);
            failures.add("JMeter exited with code " + f.jmeterExit() + (told ? "" : "; see " + see));
        }
        List<String> verdicts = new ArrayList<>(RunVerdict.failures(f.dir()));
        // a count the dead store could not answer is part of the store's failure, not one of its own
        List<String> uncounted = RunVerdict.uncounted(f.dir());
        if (!health.downAtEnd()) {
            verdicts.addAll(uncounted);
        }
        if (!verdicts.isEmpty()) {
            failures.add("an element found the run failed:" + lines(verdicts));
        }
        if (!failures.isEmpty()) {
            failures.addAll(health.store());
            failures.addAll(health.load());
            return new Verdict(Ending.FAILED, failures.size() == 1 ? failures.get(0) : "the run failed:" + lines(failures),
                    health.expected());
        }
        List<String> store = new ArrayList<>(health.store());
        if (health.downAtEnd()) {
            List<String> notCounted = uncounted.stream().map(u -> u + " (not counted: the store was down)").toList();
            (store.isEmpty() ? health.expected() : store).addAll(notCounted);
        }
        List<String> broken = RunVerdict.brokenLimits(f.dir());
        if (!broken.isEmpty()) {
            List<String> all = new ArrayList<>(broken);
            all.addAll(store);
            all.addAll(health.load());
            return new Verdict(Ending.LIMITS_BROKEN, "the run broke its limits and was stopped early:" + lines(all),
                    health.expected());
        }
        if (!store.isEmpty()) {
            List<String> all = new ArrayList<>(store);
            all.addAll(health.load());
            return new Verdict(Ending.STORE_FAILED, "the store failed during the run:" + lines(all), health.expected());
        }
        if (!health.load().isEmpty()) {
            return new Verdict(Ending.LOAD_INCOMPLETE, "the load did not run as planned:" + lines(health.load()),
                    health.expected(), health.unsent() != null && health.load().size() == 1);
        }
        return new Verdict(Ending.OK, null, health.expected());
    }

    /** The distinct messages of the samples a refused configuration stopped, each with the labels it stopped. */
    private static Map<String, Set<String>> configRefusals(Summary s) throws IOException {
        Map<String, Set<String>> labels = new LinkedHashMap<>();
        try (JtlReader reader = new JtlReader(s.source())) {
            JtlSample sample;
            while ((sample = reader.next()) != null) {
                if (!sample.success() && Results.CONFIG_ERROR.equals(sample.responseCode())
                        && (labels.size() < QUOTED || labels.containsKey(sample.responseMessage()))) {
                    labels.computeIfAbsent(sample.responseMessage(), m -> new LinkedHashSet<>()).add(sample.label());
                }
            }
        }
        return labels;
    }

    private static String lines(List<String> reasons) {
        StringBuilder text = new StringBuilder();
        reasons.forEach(r -> text.append("\n  ").append(r));
        return text.toString();
    }
}
