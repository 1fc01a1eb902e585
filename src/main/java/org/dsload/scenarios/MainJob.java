package org.dsload.scenarios;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.report.LabelStats;
import org.dsload.report.SlaveRoster;
import org.dsload.run.Ending;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.run.RunSignals;
import org.dsload.targets.Checkout;

/**
 * The main job: every scenario plan, each against its embedded target started here, results and
 * summaries into a results folder, and a table of all scenarios at the end.
 * {@code dsload scenarios} and {@code ./mvnw verify -Pscenarios} run it.
 */
public final class MainJob {
    static final List<Scenario> SCENARIOS = List.of(new EkvScenario(), new RedisYcsbScenario(), new CassandraScenario(),
            new ZooKeeperLatenciesScenario(), new ZooKeeperSchedulerScenario(), new InfluxDbScenario(), new KairosDbWriteScenario(),
            new KairosDbReadScenario(), new MonkeyScenario());
    private static final Duration PER_PLAN_LIMIT = Duration.ofMinutes(15);
    public static final int DEFAULT_SLAVES = 2;

    private final PrintStream out;
    private final Path results;
    /** Slaves for every scenario, or null for each scenario's own ({@link Scenario#defaultSlaves()}). */
    private final Integer slaves;
    private RunSignals signals;

    public MainJob(PrintStream out, Path results, Integer slaves) {
        this.out = out;
        this.results = results;
        this.slaves = slaves;
    }

    /** Stops the run under way in order on these signals, and the job with it. */
    public MainJob stopOn(RunSignals caught) {
        this.signals = caught;
        return this;
    }

    /** The scenarios of these names, in the main job's order; all of them for none. */
    public static List<Scenario> selected(List<String> names) {
        if (names.isEmpty()) {
            return SCENARIOS;
        }
        Set<String> wanted = new LinkedHashSet<>(names);
        List<Scenario> chosen = SCENARIOS.stream().filter(s -> wanted.contains(s.name())).toList();
        if (chosen.size() != wanted.size()) {
            Set<String> unknown = new LinkedHashSet<>(wanted);
            chosen.forEach(s -> unknown.remove(s.name()));
            throw new IllegalArgumentException("unknown scenario " + String.join(", ", unknown) + "; known: "
                    + SCENARIOS.stream().map(Scenario::name).collect(Collectors.joining(", ")));
        }
        return chosen;
    }

    /**
     * What the job found: scenarios that failed (their run failed, was refused or had no successful
     * request), and scenarios that ran but missed their schedule or success ratio ({@link ScenarioVerdict}).
     */
    public record Tally(int failed, int missed) {
    }

    /**
     * Runs the scenarios one after the other, each plan with its main-job properties, then its
     * target's, then {@code overrides}.
     */
    public Tally run(List<Scenario> scenarios, Map<String, String> overrides) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        List<String> report = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        int failed = 0;
        int skipped = 0;
        Map<String, Integer> slaveCounts = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) {
            if (signals != null && signals.caught()) {
                report.add(String.format(Locale.ROOT, "%-10s not run: the job was interrupted", scenario.name()));
                continue;
            }
            int engines = slavesFor(scenario);
            slaveCounts.put(scenario.name(), engines);
            out.println("== dsload main job: " + scenario.name() + " (" + scenario.plan() + ")" + onSlaves(engines) + " ==");
            String line;
            try (Scenario.Target target = scenario.start()) {
                PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans").resolve(scenario.plan()))
                        .resultsRoot(results).runId(stamp + "-" + scenario.name()).timeout(PER_PLAN_LIMIT)
                        .localSlaves(engines).remoteDir(Checkout.basedir().resolve("remote-servers"));
                scenario.mainJobProperties(Math.max(1, engines)).forEach(run::property);
                target.properties().forEach(run::property);
                overrides.forEach(run::property);
                PlanRunner.Outcome outcome = new PlanRunner(out).stopOn(signals).run(run);
                if (outcome.summary() != null) {
                    out.println();
                    out.print(Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8));
                }
                // a machine too busy for the rate leaves arrivals unsent: the scenario ran, and missed its schedule
                boolean ran = outcome.ok() || outcome.onlyArrivalsUnsent();
                if (!ran || outcome.summary() == null) {
                    line = describeFailure(scenario, outcome);
                    failed++;
                } else {
                    ScenarioVerdict verdict = ScenarioVerdict.of(outcome.summary().measured(),
                            scenario.minSuccessRatio(), outcome.onlyArrivalsUnsent() ? outcome.problem() : null);
                    line = describe(scenario, outcome, verdict);
                    if (!verdict.ok()) {
                        findings.add(String.format(Locale.ROOT, "%-10s %s", scenario.name(), verdict.text()));
                    }
                }
            } catch (Scenario.Unavailable e) {
                skipped++;
                line = String.format(Locale.ROOT, "%-10s SKIPPED: its server is not available here: %s", scenario.name(),
                        e.getMessage());
            } catch (Exception e) {
                failed++;
                line = String.format(Locale.ROOT, "%-10s FAILED to run: %s", scenario.name(), e);
            }
            out.println(line);
            report.add(line);
        }
        Files.createDirectories(results);
        Path index = results.resolve(stamp + "-main-job.txt");
        Files.writeString(index, String.join("\n", report) + "\n", StandardCharsets.UTF_8);
        out.println();
        out.println("== dsload main job: " + (scenarios.size() - failed - skipped) + " of " + scenarios.size()
                + " scenarios ran" + (skipped > 0 ? ", " + skipped + " skipped" : "")
                + slavesOfAll(slaveCounts) + " ==");
        report.forEach(out::println);
        out.println("(this table: " + index + ")");
        if (!findings.isEmpty()) {
            out.println();
            out.println("== dsload main job: " + findings.size() + (findings.size() == 1 ? " scenario" : " scenarios")
                    + " ran but missed what it must keep, on this machine (late: more than "
                    + ScenarioVerdict.MAX_LATE_PERCENT + " % of the measured arrivals sent more than 10 ms after their"
                    + " intended start; see each summary's generator section for the machine's CPU) ==");
            findings.forEach(out::println);
        }
        return new Tally(failed, findings.size());
    }

    /** The slaves of a scenario's run: the user's number for all, or the scenario's own. */
    int slavesFor(Scenario scenario) {
        return slaves != null ? slaves : scenario.defaultSlaves();
    }

    private static String onSlaves(int engines) {
        return engines == 0 ? " in the master alone"
                : " on " + engines + " local jmeter-server slave" + (engines == 1 ? "" : "s");
    }

    /**
     * How the scenarios that were tried ran: on the number of slaves most of them had, and the others
     * named with theirs.
     */
    static String slavesOfAll(Map<String, Integer> counts) {
        if (counts.isEmpty()) {
            return "";
        }
        Map<Integer, Long> byCount = counts.values().stream().collect(Collectors.groupingBy(n -> n, Collectors.counting()));
        int most = byCount.entrySet().stream().max(Map.Entry.<Integer, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
        StringBuilder text = new StringBuilder(", each").append(onSlaves(most));
        counts.forEach((name, n) -> {
            if (n != most) {
                text.append(", ").append(name).append(onSlaves(n));
            }
        });
        return text.toString();
    }

    /** One line in the table: the reasons of a refusal or failure, after the headline the verdict repeats. */
    private static String describeFailure(Scenario scenario, PlanRunner.Outcome outcome) {
        List<String> lines = outcome.problem().lines().map(String::trim).toList();
        String reasons = String.join(" | ", lines.size() > 1 ? lines.subList(1, lines.size()) : lines);
        return String.format(Locale.ROOT, "%-10s %s: %s  [%s]", scenario.name(), verdict(outcome.ending()), reasons,
                outcome.dir());
    }

    /**
     * The figures of the measured window (the run without its warm-up), after the verdict; under an
     * arrival schedule its rate is the arrivals' (a setUp sample before the warm-up would stretch the
     * span of the requests' starts).
     */
    private static String describe(Scenario scenario, PlanRunner.Outcome outcome, ScenarioVerdict verdict) {
        LabelStats measured = outcome.summary().measured();
        double rate = measured.scheduledSamples() > 0 ? measured.achievedRate() : measured.rate();
        int lost = slaves(outcome.dir(), SlaveRoster.State.LOST);
        int stalled = slaves(outcome.dir(), SlaveRoster.State.STALLED);
        int resumed = slaves(outcome.dir(), SlaveRoster.State.RESUMED);
        return String.format(Locale.ROOT, "%-10s %s  %d requests, %.1f/s, success %.2f%%, p99 %s%s%s%s%s  [%s]",
                scenario.name(), verdict.text(), measured.requests(), rate, measured.successRatio() * 100,
                org.dsload.report.Durations.format(measured.latencies().percentile(99) / 1000.0),
                measured.arrivals() > 0 ? ", late " + measured.lateArrivals() + " of " + measured.arrivals() : "",
                lost > 0 ? ", " + lost + " slave(s) lost" : "", stalled > 0 ? ", " + stalled + " slave(s) stalled" : "",
                resumed > 0 ? ", " + resumed + " slave(s) out of reach for a while" : "", outcome.dir());
    }

    private static String verdict(Ending ending) {
        return switch (ending) {
            case INTERRUPTED -> "INTERRUPTED";
            case REFUSED -> "FAILED, refused at its start";
            case NO_SUCCESS -> "FAILED, no successful sample";
            default -> "FAILED";
        };
    }

    private static int slaves(Path runDir, SlaveRoster.State state) {
        try {
            return SlaveRoster.read(runDir).map(r -> r.in(state).size()).orElse(0);
        } catch (IOException e) {
            return 0;
        }
    }
}
