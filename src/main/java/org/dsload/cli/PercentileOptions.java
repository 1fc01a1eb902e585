package org.dsload.cli;

import java.util.Map;
import java.util.Stack;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.report.BaselineLimits;
import org.dsload.report.Limits;

import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --max-p<N>} options of {@code check} and {@code find-max}, and {@code --max-p<N>-increase}
 * of {@code check}: any percentile may be
 * limited, so the options cannot all be declared. Before the command parses its arguments, this
 * adds an option for each of them among its arguments, so picocli parses, converts and reports
 * them like the others, into the command's {@link Limits}.
 */
final class PercentileOptions implements IParameterPreprocessor {
    /** A command with limits. */
    interface Limited {
        Limits limits();

        /** The limits against a baseline ({@code --max-p<N>-increase}); null for a command without them. */
        default BaselineLimits baselineLimits() {
            return null;
        }
    }

    static final String TEMPLATE = "--max-p<N>";
    static final String INCREASE_TEMPLATE = "--max-p<N>-increase";
    private static final Pattern NAME = Pattern.compile("--max-p(\\d+(?:\\.\\d+)?)(-increase)?");

    @Override
    public boolean preprocess(Stack<String> args, CommandSpec spec, ArgSpec argSpec, Map<String, Object> info) {
        Limits limits = ((Limited) spec.userObject()).limits();
        BaselineLimits baselineLimits = ((Limited) spec.userObject()).baselineLimits();
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            Matcher m = NAME.matcher(name);
            if (!m.matches() || spec.optionsMap().containsKey(name)) {
                continue;
            }
            double percentile = Double.parseDouble(m.group(1));
            if (!(percentile > 0 && percentile <= 100)) {
                throw new ParameterException(spec.commandLine(),
                        name + ": the percentile must lie above 0 and at most 100, such as --max-p99 or --max-p99.9");
            }
            boolean increase = m.group(2) != null;
            if (increase && baselineLimits == null) {
                continue; // not an option of this command: picocli reports it as unknown
            }
            spec.addOption(OptionSpec.builder(name).paramLabel(increase ? "<percent>" : "<duration>")
                    .type(increase ? Double.class : Long.class)
                    .converters(increase ? new OptionValues.Growth() : new OptionValues.Micros()).hidden(true)
                    .setter(new ISetter() {
                        @Override
                        public <T> T set(T value) {
                            if (value instanceof Double ratio) {
                                baselineLimits.maxPercentileIncrease(percentile, ratio);
                            } else if (value instanceof Long micros) {
                                limits.maxPercentile(percentile, micros);
                            }
                            return null;
                        }
                    }).build());
        }
        return false;
    }
}
