package org.dsload.scenarios;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.targets.Checkout;

/**
 * {@code dsload scenarios [names] [--slaves N] [--props "name=value ..."] [--record rows|histograms]
 * [--results <dir>]}: the main job ({@link MainJob}). Names are the scenarios to run (separate
 * words or comma separated; none: all), {@code --props} properties for every plan, {@code --record}
 * the JMeter property {@value #RECORD_PROPERTY} of every run. Options also take the form
 * {@code --name=value}, and an empty value is the default: that is how the Maven profile passes
 * properties it may leave empty.
 */
public final class ScenariosCommand {
    /** The JMeter property that chooses what a run records of its samples. */
    public static final String RECORD_PROPERTY = "dsload.record";
    static final List<String> RECORD_MODES = List.of("rows", "histograms");

    /** What to run, as parsed from the command line. */
    public record Request(List<String> names, int slaves, Map<String, String> properties, String record, Path results) {
        /** The properties every plan gets: the ones given, and what to record. */
        public Map<String, String> overrides() {
            Map<String, String> all = new LinkedHashMap<>(properties);
            if (record != null) {
                all.put(RECORD_PROPERTY, record);
            }
            return all;
        }
    }

    private ScenariosCommand() {
    }

    /** Runs the main job; 0 when every scenario ran, 1 when one failed. */
    public static int run(List<String> args, PrintStream out) throws IOException {
        Request request = parse(args);
        List<Scenario> scenarios = MainJob.selected(request.names());
        int failed = new MainJob(out, request.results(), request.slaves()).run(scenarios, request.overrides());
        return failed == 0 ? 0 : 1;
    }

    /** @throws IllegalArgumentException for what the command line gets wrong, saying what is expected */
    public static Request parse(List<String> args) {
        List<String> names = new ArrayList<>();
        int slaves = MainJob.DEFAULT_SLAVES;
        Map<String, String> properties = new LinkedHashMap<>();
        String record = null;
        Path results = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String option = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
            String inline = option.equals(arg) ? null : arg.substring(arg.indexOf('=') + 1);
            switch (option) {
                case "--slaves" -> {
                    String value = inline != null ? inline : value(args, ++i, option);
                    slaves = value.isBlank() ? MainJob.DEFAULT_SLAVES : slaves(value);
                }
                case "--props" -> properties.putAll(properties(inline != null ? inline : value(args, ++i, option)));
                case "--record" -> {
                    String value = (inline != null ? inline : value(args, ++i, option)).trim();
                    if (!value.isEmpty() && !RECORD_MODES.contains(value)) {
                        throw new IllegalArgumentException("--record takes rows or histograms, got '" + value + "'");
                    }
                    record = value.isEmpty() ? null : value;
                }
                case "--results" -> results = Path.of(inline != null ? inline : value(args, ++i, option));
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + arg
                                + " (scenarios takes --slaves, --props, --record and --results)");
                    }
                    for (String name : arg.split(",")) {
                        if (!name.isBlank()) {
                            names.add(name.trim());
                        }
                    }
                }
            }
        }
        return new Request(List.copyOf(names), slaves, properties, record,
                results != null ? results : Checkout.basedir().resolve("results"));
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    static int slaves(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--slaves takes a number of slaves (0: the master alone), got '" + value + "'");
    }

    /** {@code name=value} pairs separated by spaces. */
    static Map<String, String> properties(String pairs) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : pairs.trim().split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--props takes name=value pairs separated by spaces, got '" + pair + "'");
            }
            properties.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return properties;
    }
}
