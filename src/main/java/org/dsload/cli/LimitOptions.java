package org.dsload.cli;

import org.dsload.report.Limits;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The limits {@code check} and {@code find-max} judge figures on: {@code --max-p<N>} (added for each
 * percentile given by {@link PercentileOptions}), {@code --max-error-rate} and {@code --max-late}. They fill
 * {@link #limits} in the order given, which is the order the verdicts are printed in; so a command
 * line is parsed once per instance, as Main does.
 */
final class LimitOptions {
    final Limits limits = new Limits();

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = PercentileOptions.TEMPLATE, paramLabel = "<duration>",
            description = "The N-th latency percentile must not exceed this duration (500us, 20ms, 1.5s);"
                    + " N is any percentile: --max-p50, --max-p95, --max-p99, --max-p99.9 ...")
    private void percentileTemplate(String duration) {
        throw new ParameterException(command.commandLine(), "write the percentile into the option's name: --max-p99 "
                + duration);
    }

    @Option(names = "--max-error-rate", paramLabel = "<percent>", converter = OptionValues.Ratio.class,
            description = "At most this share of the requests may fail (1%%, 0.5%%).")
    private void maxErrorRate(Double ratio) {
        if (ratio != null) {
            limits.maxErrorRatio(ratio);
        }
    }

    @Option(names = "--max-late", paramLabel = "<percent>", converter = OptionValues.Ratio.class,
            description = "At most this share of the scheduled arrivals may start more than 10 ms after their intended"
                    + " start or be dropped (the summary's late arrivals; 1%%). Figures without an arrival schedule keep it.")
    private void maxLate(Double ratio) {
        if (ratio != null) {
            limits.maxLateRatio(ratio);
        }
    }
}
