package org.dsload.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordMode;
import org.dsload.run.RunSignals;
import org.dsload.scenarios.MainJob;
import org.dsload.scenarios.Scenario;
import org.dsload.targets.Checkout;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code dsload scenarios}: the main job. {@code ./mvnw verify -Pscenarios} runs it with options
 * it may leave empty ({@code --record=}): an empty value is the default.
 */
@Command(name = "scenarios", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The main job: every scenario plan (or those named) against its embedded server, distributed"
                + " over local jmeter-server slaves; each run's results and summary into <results>/<date>-<time>-<name>/,"
                + " and a table of all scenarios at the end."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:every scenario ran (those whose server is not installed here are skipped, saying so), even"
                + " if its row reads 'missed: ...' (late arrivals or failures beyond what it must keep), unless --strict",
            "  1:a scenario failed: its run failed, was refused at its start or had no successful sample (the table"
                + " says which and why); with --strict also a scenario that missed its schedule or success ratio",
            ExitCodes.USAGE_LINE, ExitCodes.INTERRUPTED_LINE})
final class ScenariosCommand extends Subcommand {
    @Parameters(paramLabel = "<name>", arity = "0..*", split = ",",
            description = "Scenarios to run, by name, separate or comma separated (default: all): ekv, redis-ycsb,"
                    + " cassandra, zk-latencies, zk-scheduler, influx, kairosdb-write, kairosdb-read, monkey.")
    private List<String> names = new ArrayList<>();

    @Option(names = "--slaves", paramLabel = "<n>", converter = SlavesOrDefault.class,
            description = "jmeter-server slaves on this machine for every plan; 0 runs each plan in the master alone"
                    + " (default: each scenario's own, 2; influx 1, as S2's rate is this kind of machine's limit).")
    private Integer slaves;

    @Option(names = "--props", paramLabel = "\"name=value ...\"",
            description = "JMeter properties for every plan, space separated (duration=60 threads=50; threads are per"
                    + " slave).")
    private String props = "";

    @Option(names = "--record", paramLabel = "rows|histograms", converter = OptionValues.Record.class,
            description = "What every run records of its samples: the JMeter property dsload.record (default: the"
                    + " plans' own).")
    private RecordMode record;

    @Option(names = "--strict", arity = "0..1", fallbackValue = "true",
            description = "Exit with 1 also when a scenario ran but missed its schedule (more than 0.1 %% of its measured"
                    + " arrivals late) or its success ratio: a row that reads 'missed: ...' (default: such a row is a"
                    + " finding about this machine and the job still ends with 0).")
    private boolean strict;

    @Option(names = "--results", paramLabel = "<dir>",
            description = "Folder of the run folders (default: results/ of the checkout).")
    private Path results;

    @Mixin
    private LiveOptions live;

    @Override
    public Integer call() throws IOException {
        String badLive = live.problem();
        if (badLive != null) {
            throw usageError(badLive);
        }
        List<Scenario> chosen;
        try {
            chosen = MainJob.selected(names.stream().map(String::trim).filter(n -> !n.isEmpty()).toList());
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
        Map<String, String> overrides = live.properties();
        overrides.putAll(properties(props));
        if (record != null) {
            overrides.put(RunProperties.RECORD, record.value());
        }
        Path root = results != null ? results : Checkout.basedir().resolve("results");
        try (RunSignals signals = RunSignals.catching(out())) {
            MainJob.Tally tally = new MainJob(out(), root, slaves).stopOn(signals).run(chosen, overrides);
            if (signals.caught()) {
                return signals.exitCode();
            }
            return exitCode(tally, strict);
        }
    }

    /** 1 when a scenario failed, or with {@code strict} missed what it must keep; 0 otherwise. */
    static int exitCode(MainJob.Tally tally, boolean strict) {
        return tally.failed() > 0 || (strict && tally.missed() > 0) ? ExitCodes.FAILED : ExitCodes.OK;
    }

    /** A count of 0 or more; empty is the default. */
    static final class SlavesOrDefault implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return text.isBlank() ? null : new OptionValues.CountOrNone().convert(text);
        }
    }

    /** {@code name=value} pairs separated by spaces; empty for none. */
    private Map<String, String> properties(String text) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : text.trim().split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw usageError("Invalid value for option '--props': '" + pair + "' is not name=value; write the"
                        + " properties as \"duration=60 threads=50\"");
            }
            properties.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return properties;
    }
}
