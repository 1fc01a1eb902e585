package org.dsload.cli;

import org.dsload.process.JMeterJvm;

import picocli.CommandLine.Command;

/** {@code dsload jvm-options}: for shell launchers of JMeter (bin/jmeter reads them). */
@Command(name = "jvm-options", mixinStandardHelpOptions = true,
        description = {"Print the JVM options, one a line, that a JMeter 5.6 process needs on Java 17."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, ExitCodes.USAGE_LINE})
final class JvmOptionsCommand extends Subcommand {
    @Override
    public Integer call() {
        JMeterJvm.baseOptions().forEach(out()::println);
        return ExitCodes.OK;
    }
}
