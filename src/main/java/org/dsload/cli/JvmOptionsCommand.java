package org.dsload.cli;

import org.dsload.process.JMeterJvm;

import picocli.CommandLine.Command;

/** {@code dsload jvm-options}: for shell launchers of JMeter (bin/jmeter reads them). */
@Command(name = "jvm-options", mixinStandardHelpOptions = true,
        description = {"Print the JVM options, one a line, that a JMeter 5.6 process needs on Java 17; run from the"
                + " jar installed in a JMeter home's lib/ext, also those that map the home's class-data archive."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, ExitCodes.USAGE_LINE})
final class JvmOptionsCommand extends Subcommand {
    @Override
    public Integer call() {
        try {
            // the jar in <home>/lib/ext: the home's archive, if install made one
            JMeterJvm.classData(BundleInstaller.bundleOfThisJar()).forEach(out()::println);
        } catch (IllegalStateException notInAHome) {
            // run from the classes of a build, not from a jar in lib/ext: no archive to map
        }
        JMeterJvm.baseOptions().forEach(out()::println);
        return ExitCodes.OK;
    }
}
