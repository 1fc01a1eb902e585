package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.gauges.GaugeLimit;
import org.dsload.process.Folders;
import org.dsload.report.FindMaxReport;
import org.dsload.report.Limits;
import org.dsload.report.RateSearchRule;
import org.dsload.run.Ending;
import org.dsload.run.FindMaxSteps;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.run.RateSearch;
import org.dsload.run.RunSignals;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsload find-max}: the highest rate a plan driven by a rate property keeps its limits at,
 * found by real runs of the plan at rising rates ({@link RateSearch}, {@link FindMaxSteps}).
 */
@Command(name = "find-max", mixinStandardHelpOptions = true, sortOptions = false,
        preprocessor = PercentileOptions.class,
        description = {"Find the highest rate a plan driven by a rate property (rate, queries_per_min, target, or"
                + " --rate-property) keeps the limits at: each step is a real run of the plan; the rate doubles from"
                + " --start while the limits are kept, then is bisected between the last rate kept and the first broken."
                + " Writes find-max.txt, find-max.json and find-max.png beside the steps' run folders, and says whether"
                + " the answer is the server's limit or the generator's. At least one limit is needed."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:an answer: the highest rate that kept the limits", "  1:even the first step broke the"
                + " limits (or a step failed to run)", ExitCodes.USAGE_LINE + "; a plan without a rate property",
            "  7:a step's run was refused at its start (a server out of reach, slaves unreachable): the search ended there",
            ExitCodes.INTERRUPTED_LINE})
final class FindMaxCommand extends Subcommand implements PercentileOptions.Limited {
    /** The rate properties of the shipped plans, looked for in this order. */
    static final List<String> RATE_PROPERTIES = List.of("rate", "queries_per_min", "target");
    private static final Pattern PROPERTY = Pattern.compile("__P\\(\\s*([A-Za-z0-9_.\\-]+)\\s*(?:,([^,)]*))?\\)");

    @Parameters(paramLabel = "<plan.jmx>", description = "A test plan whose load is set by a rate property.")
    private Path plan;

    @Mixin
    private LimitOptions limitOptions;

    @Override
    public Limits limits() {
        return limitOptions.limits;
    }

    private final List<GaugeLimit> gaugeLimits = new ArrayList<>();

    @Option(names = "--max-gauge", paramLabel = "<gauge>=<number>",
            description = "Limit: no reading of this server gauge in a step's measured window may exceed the number"
                    + " (zk_outstanding_requests=100, connected_clients=500: a column of the run's server gauge files,"
                    + " which the plan must record); repeat for several.")
    private void maxGauge(String text) {
        try {
            gaugeLimits.add(GaugeLimit.parse(text));
        } catch (IllegalArgumentException e) {
            throw usageError("--max-gauge: " + e.getMessage());
        }
    }

    @Option(names = "--rate-property", paramLabel = "<name>",
            description = "The plan's property that sets its rate (default: the first of " + "rate, queries_per_min, target"
                    + " the plan reads). Its unit is the plan's: queries_per_min is per minute.")
    private String rateProperty;

    @Option(names = "--unit", paramLabel = "<name>",
            description = "The rate property is a count of this unit (hosts, domains, threads) rather than a rate: every"
                    + " step's value is a whole number, and the answer is said in it. For kairosdb-write.jmx:"
                    + " --rate-property=threads --unit=hosts; for zk-scheduler-model.jmx: --rate-property=domains --unit=domains.")
    private String unit;

    @Option(names = "--start", paramLabel = "<rate>", converter = OptionValues.PositiveNumber.class,
            description = "The first step's rate, in the rate property's unit (default: the plan's own default of it).")
    private Double start;

    @Option(names = "--step-seconds", paramLabel = "<s>", converter = OptionValues.Seconds.class, defaultValue = "10",
            description = "How long each step's measured window lasts (default: ${DEFAULT-VALUE}).")
    private Duration stepSeconds;

    @Option(names = "--settle-seconds", paramLabel = "<s>", converter = OptionValues.SecondsOrNever.class,
            defaultValue = "5", description = "Seconds before each step's measured window, left out of its figures: the"
                    + " plan's warm-up (-Jwarmup) when it has one, else the run's first seconds (default: ${DEFAULT-VALUE}).")
    private long settleSeconds;

    @Option(names = "--max-steps", paramLabel = "<n>", converter = OptionValues.Count.class, defaultValue = "12",
            description = "At most this many steps (runs) in all (default: ${DEFAULT-VALUE}).")
    private int maxSteps;

    @Option(names = "--resolution", paramLabel = "<percent>", converter = OptionValues.Ratio.class, defaultValue = "10%",
            description = "Bisect until the rate kept and the rate broken lie within this share of the kept one"
                    + " (default: ${DEFAULT-VALUE}).")
    private double resolution;

    @Option(names = "--repeat-answer", paramLabel = "<n>", converter = OptionValues.CountOrNone.class, defaultValue = "1",
            description = "Run the answer's rate this many more times before giving it; a repeat that breaks the limits"
                    + " makes it a broken rate, and the search goes on below it: one window's luck does not make an"
                    + " answer (default: ${DEFAULT-VALUE}; 0: none). The repeats count in --max-steps.")
    private int repeatAnswer;

    @Mixin
    private JMeterHomeOption jmeterHome;

    @Mixin
    private ResultsOptions results;

    @Mixin
    private PropertyOptions properties;

    @Mixin
    private SlaveSelectionOptions slaves;

    @Mixin
    private RemoteDirOption remoteDir;

    @Mixin
    private LiveOptions live;

    @Override
    public Integer call() throws IOException, InterruptedException {
        String badSlaves = slaves.problem(properties);
        if (badSlaves != null) {
            throw usageError(badSlaves);
        }
        String badLive = live.problem();
        if (badLive != null) {
            throw usageError(badLive);
        }
        Limits limits = limits();
        if (limits.isEmpty() && gaugeLimits.isEmpty()) {
            throw usageError("find-max needs at least one limit (--max-p99 20ms, --max-error-rate 1%, --max-late 1% ...)");
        }
        if (unit != null && !unit.matches("[A-Za-z][A-Za-z0-9 _-]{0,39}")) {
            throw usageError("--unit must be a word such as hosts or domains, got '" + unit + "'");
        }
        if (!(resolution > 0)) {
            throw usageError("--resolution must be above 0%");
        }
        if (!Files.isRegularFile(plan)) {
            throw usageError("no plan at " + plan);
        }
        Map<String, String> read = planProperties(Files.readString(plan, StandardCharsets.UTF_8));
        String property = rateProperty(read);
        if (!read.containsKey("duration")) {
            throw usageError(plan + " reads no 'duration' property, which find-max sets to each step's length; it reads: "
                    + String.join(", ", read.keySet()));
        }
        double first = start != null ? start : planDefault(read, property);
        boolean planWarmUp = read.containsKey("warmup");
        Path folder = searchFolder(results, plan);
        PrintStream out = out();
        try (RunSignals signals = RunSignals.catching(out)) {
            PlanRunner runner = new PlanRunner(out).stopOn(signals);
            FindMaxSteps steps = new FindMaxSteps(runner, id -> step(folder, id), property, limits,
                    gaugeLimits, stepSeconds.toSeconds(), settleSeconds, planWarmUp, out);
            RateSearch.Result result = RateSearch.search(new RateSearchRule(first, maxSteps, resolution, unit != null)
                    .confirmedBy(repeatAnswer), steps);
            FindMaxReport.Answer answer = result.answer();
            String text = FindMaxReport.text(plan.toString(), property, unit, answer, result.steps());
            Files.writeString(folder.resolve(FindMaxReport.TEXT), text, StandardCharsets.UTF_8);
            Files.writeString(folder.resolve(FindMaxReport.JSON), FindMaxReport.json(answer, unit, result.steps()),
                    StandardCharsets.UTF_8);
            if (!result.steps().isEmpty()) {
                try {
                    FindMaxReport.chart(property, result.steps(), folder.resolve(FindMaxReport.CHART));
                } catch (IOException | RuntimeException e) {
                    out.println("dsload find-max: no chart: " + e);
                }
            }
            out.println();
            out.print(text);
            out.println("dsload find-max: results in " + folder);
            PlanRunner.Outcome ended = steps.ended();
            if (result.stopped() && ended != null && ended.ending() == Ending.REFUSED) {
                out.println("dsload find-max: step " + (result.steps().size() + 1) + " " + FindMaxSteps.oneLine(ended)
                        + "; the search ended there");
                return ExitCodes.REFUSED_AT_START;
            }
            if (result.stopped()) {
                out.println("dsload find-max: interrupted; the answer is that of the steps run until then");
                return signals.exitCode() > 0 ? signals.exitCode() : ExitCodes.INTERRUPTED;
            }
            return answer.found() ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    /**
     * The search's own folder, made fresh as a run's is ({@link Folders#freshRun}): its {@code --run-id}, or
     * {@code <date>-<time>-find-max-<plan>}, with {@code -2}, {@code -3} ... when that name is taken, so that
     * two searches started in the same second, or a run id used before, never share one.
     */
    static Path searchFolder(ResultsOptions results, Path plan) throws IOException {
        return Folders.freshRun(results.root, results.runId,
                "find-max-" + plan.getFileName().toString().replaceFirst("\\.jmx$", ""));
    }

    private PlanRun step(Path folder, String runId) {
        PlanRun run = new PlanRun(jmeterHome.home(), plan).resultsRoot(folder).runId(runId).dashboard(false)
                .remoteDir(remoteDir.dir());
        try {
            slaves.applyTo(run);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        live.applyTo(run);
        properties.applyTo(run);
        return run;
    }

    /** The properties a plan reads with __P, each with its default as written (null for none), in the order met. */
    static Map<String, String> planProperties(String planText) {
        Map<String, String> found = new LinkedHashMap<>();
        Matcher m = PROPERTY.matcher(planText);
        while (m.find()) {
            found.putIfAbsent(m.group(1), m.group(2) == null ? null : m.group(2).trim());
        }
        return found;
    }

    private String rateProperty(Map<String, String> read) {
        if (rateProperty != null) {
            if (!read.containsKey(rateProperty)) {
                throw usageError(plan + " reads no property '" + rateProperty + "'; it reads: " + String.join(", ",
                        read.keySet()));
            }
            return rateProperty;
        }
        for (String name : RATE_PROPERTIES) {
            if (read.containsKey(name)) {
                return name;
            }
        }
        List<String> names = new ArrayList<>(read.keySet());
        throw usageError(plan + " is not driven by a rate property (" + String.join(", ", RATE_PROPERTIES) + "); it reads: "
                + (names.isEmpty() ? "no property" : String.join(", ", names)) + ". Name its rate property with"
                + " --rate-property=<name>.");
    }

    private double planDefault(Map<String, String> read, String property) {
        String value = read.get(property);
        try {
            double rate = Double.parseDouble(value == null ? "" : value);
            if (rate > 0) {
                return rate;
            }
        } catch (NumberFormatException e) {
            // no usable default: said below
        }
        throw usageError("the plan's default of '" + property + "' is not a rate above 0 ('" + value + "'): give --start=<rate>");
    }
}
