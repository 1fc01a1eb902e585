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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.dsload.report.LabelStats;
import org.dsload.report.SlaveRoster;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.testing.Build;

/**
 * The main job: every scenario plan, each against its embedded target started here, results and
 * summaries into results/. Options (system properties):
 * <ul>
 * <li>{@code dsload.scenarios}: names to run, comma separated (default: all);</li>
 * <li>{@code dsload.props}: {@code name=value} pairs, space separated, passed to every plan
 * (for example {@code duration=60 threads=50});</li>
 * <li>{@code dsload.results}: results folder (default: results/ of the project);</li>
 * <li>{@code dsload.slaves}: jmeter-server slaves each plan runs on, started on this machine for the
 * plan and stopped after it (default 2; 0 runs the plan in the master alone).</li>
 * </ul>
 */
public final class MainJob {
    static final List<Scenario> SCENARIOS = List.of(new EkvScenario(), new RedisYcsbScenario(), new CassandraScenario(),
            new ZkLatenciesScenario(), new ZkSchedulerScenario(), new InfluxScenario(), new KairosDbWriteScenario(),
            new KairosDbReadScenario(), new MonkeyScenario());
    private static final Duration PER_PLAN_LIMIT = Duration.ofMinutes(15);
    static final int DEFAULT_SLAVES = 2;

    private final PrintStream out;
    private final Path results;
    private final int slaves;

    MainJob(PrintStream out, Path results) {
        this(out, results, DEFAULT_SLAVES);
    }

    MainJob(PrintStream out, Path results, int slaves) {
        this.out = out;
        this.results = results;
        this.slaves = slaves;
    }

    public static void main(String[] args) {
        Path results = Path.of(System.getProperty("dsload.results", Build.basedir().resolve("results").toString()));
        int failed;
        try {
            MainJob job = new MainJob(System.out, results, slaves(System.getProperty("dsload.slaves", "")));
            failed = job.run(selected(System.getProperty("dsload.scenarios", "")),
                    parse(System.getProperty("dsload.props", "")));
        } catch (Exception e) {
            System.err.println("dsload main job: " + e);
            failed = 1;
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    static int slaves(String value) {
        if (value.isBlank()) {
            return DEFAULT_SLAVES;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("dsload.slaves takes a number of slaves (0 = none), got '" + value + "'");
    }

    static List<Scenario> selected(String names) {
        if (names.isBlank()) {
            return SCENARIOS;
        }
        Set<String> wanted = Arrays.stream(names.split(",")).map(String::trim).collect(Collectors.toSet());
        List<Scenario> chosen = SCENARIOS.stream().filter(s -> wanted.contains(s.name())).toList();
        if (chosen.size() != wanted.size()) {
            throw new IllegalArgumentException("unknown scenario in '" + names + "'; known: "
                    + SCENARIOS.stream().map(Scenario::name).collect(Collectors.joining(", ")));
        }
        return chosen;
    }

    static Map<String, String> parse(String pairs) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : pairs.trim().split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("dsload.props takes name=value pairs, got '" + pair + "'");
            }
            properties.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return properties;
    }

    /** @return the number of scenarios that failed */
    int run(List<Scenario> scenarios, Map<String, String> overrides) throws IOException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        List<String> report = new ArrayList<>();
        int failed = 0;
        int skipped = 0;
        for (Scenario scenario : scenarios) {
            out.println("== dsload main job: " + scenario.name() + " (" + scenario.plan() + ") ==");
            String line;
            try (Scenario.Target target = scenario.start()) {
                PlanRun run = new PlanRun(Build.jmeterHome(), Build.basedir().resolve("test-plans").resolve(scenario.plan()))
                        .resultsRoot(results).runId(stamp + "-" + scenario.name()).timeout(PER_PLAN_LIMIT)
                        .localSlaves(slaves).remoteDir(Build.basedir().resolve("remote-servers"));
                scenario.mainJobProperties().forEach(run::property);
                target.properties().forEach(run::property);
                overrides.forEach(run::property);
                PlanRunner.Outcome outcome = new PlanRunner(out).run(run);
                if (outcome.summary() != null) {
                    out.println();
                    out.print(Files.readString(outcome.dir().resolve("summary.txt"), StandardCharsets.UTF_8));
                }
                line = describe(scenario, outcome);
                if (!outcome.ok()) {
                    failed++;
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
                + (slaves > 0 ? ", each on " + slaves + " local jmeter-server slaves" : "") + " ==");
        report.forEach(out::println);
        out.println("(this table: " + index + ")");
        return failed;
    }

    private static String describe(Scenario scenario, PlanRunner.Outcome outcome) {
        if (!outcome.ok() || outcome.summary() == null) {
            return String.format(Locale.ROOT, "%-10s FAILED: %s  [%s]", scenario.name(), outcome.problem(), outcome.dir());
        }
        LabelStats all = outcome.summary().total();
        int lost = lostSlaves(outcome.dir());
        return String.format(Locale.ROOT, "%-10s ok  %d requests, %.1f/s, success %.2f%%, p99 %s%s  [%s]",
                scenario.name(), all.requests(), all.rate(), all.successRatio() * 100,
                org.dsload.report.Durations.format(all.latencies().percentile(99) / 1000.0),
                lost > 0 ? ", " + lost + " slave(s) lost" : "", outcome.dir());
    }

    private static int lostSlaves(Path runDir) {
        try {
            return SlaveRoster.read(runDir).map(r -> r.in(SlaveRoster.State.LOST).size()).orElse(0);
        } catch (IOException e) {
            return 0;
        }
    }
}
