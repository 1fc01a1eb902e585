package org.dsload.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine.Option;

/** {@code --jmeter-home}: the JMeter 5.6 home with the dsload bundle installed. */
final class JMeterHomeOption {
    @Option(names = "--jmeter-home", paramLabel = "<dir>",
            description = "JMeter 5.6 home with dsload installed (default: $JMETER_HOME; else the home this jar"
                    + " is installed in; else the build's target/jmeter-home).")
    private Path home;

    Path home() {
        if (home != null) {
            return home;
        }
        String env = System.getenv("JMETER_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        try {
            // When installed, this jar sits in <home>/lib/ext.
            Path bundle = BundleInstaller.bundleOfThisJar();
            if (Files.isDirectory(bundle.resolve("bin"))) {
                return bundle;
            }
        } catch (IllegalStateException notInABundle) {
            // fall through to the build's home
        }
        return Path.of("target", "jmeter-home");
    }
}
