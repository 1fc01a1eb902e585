package org.dsload.cli;

import java.io.IOException;
import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsload install}: this bundle into a JMeter 5.6 home (see jmeter-plugins/README.md). */
@Command(name = "install", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Install this bundle into a JMeter 5.6 home: the plugin jar into lib/ext, its libraries"
                + " into lib, and a class-data archive of the classes a run loads into bin. Refuses, listing them,"
                + " when the home holds other versions of those libraries."
                + " Run it from the bundle's jar: java -jar jmeter-plugins/lib/ext/dsload-<version>.jar install <home>."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:installed", "  1:refused (conflicting libraries, not a JMeter home) or not run from"
                + " the bundle's jar", ExitCodes.USAGE_LINE})
final class InstallCommand extends Subcommand {
    @Parameters(paramLabel = "<jmeter-home>", arity = "0..1", description = "The JMeter 5.6 home to install into.")
    private Path home;

    @Option(names = "--replace-conflicts",
            description = "Remove other versions of the bundle's libraries from the home instead of refusing.")
    private boolean replace;

    @Option(names = "--no-class-data",
            description = "Make no class-data archive (bin/" + org.dsload.process.JMeterJvm.CLASS_DATA + ") and no launcher"
                    + " (bin/" + org.dsload.process.JMeterJvm.LAUNCHER + "), removing those of an earlier install. By default"
                    + " install runs JMeter once to make them, so that every later JMeter JVM of the home starts with its"
                    + " classes already loaded.")
    private boolean noClassData;

    @Option(names = "--maven-target", paramLabel = "<target-dir>",
            description = "Used by the build: install into the home jmeter-maven-plugin configured in <target-dir>"
                    + " and link it as <target-dir>/jmeter-home.")
    private Path mavenTarget;

    @Override
    public Integer call() throws IOException {
        if (mavenTarget == null && home == null) {
            throw usageError("install needs a JMeter home");
        }
        BundleInstaller installer = new BundleInstaller(BundleInstaller.bundleOfThisJar(), out());
        Path installed;
        if (mavenTarget != null) {
            installed = installer.installIntoMavenBuild(mavenTarget);
        } else {
            installer.install(home, false, replace);
            installed = home;
        }
        if (noClassData) {
            ClassDataArchive.remove(installed);
        } else {
            ClassDataArchive.make(installed, out());
        }
        return ExitCodes.OK;
    }
}
