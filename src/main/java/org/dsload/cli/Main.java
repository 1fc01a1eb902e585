package org.dsload.cli;

import java.io.PrintStream;

import picocli.CommandLine;

/**
 * The dsload command line: {@code java -jar dsload-<version>.jar <command> ...} (bin/dsload runs
 * it so). The commands are in {@link DsloadCommand}.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (NoClassDefFoundError e) {
            // The jar finds its libraries through its manifest, in ../ of lib/ext.
            System.err.println("dsload: " + e.getMessage() + " is missing: run the jar from the bundle"
                    + " (jmeter-plugins/lib/ext/) or from the JMeter home it is installed in, not on its own");
            code = ExitCodes.FAILED;
        }
        System.exit(code);
    }

    /** Runs one command line, printing to these streams; returns its exit code ({@link ExitCodes}). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return commandLine(out, err).execute(args);
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return DsloadCommand.commandLine(out, err);
    }
}
