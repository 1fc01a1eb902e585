package org.dsload.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

import picocli.CommandLine;

/**
 * The dsload command line: {@code java -jar dsload-<version>.jar <command> ...} (bin/dsload runs
 * it so). The commands are in {@link DsloadCommand}; this class wires how errors are reported.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line, printing to these streams; returns its exit code ({@link ExitCodes}). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return commandLine(out, err).execute(args);
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new DsloadCommand(out));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        // A plan or results file whose name starts with @ is a file, not a list of arguments.
        cli.setExpandAtFiles(false);
        // An option given twice takes its last value, as the command line always did.
        cli.setOverwrittenOptionsAllowed(true);
        cli.setParameterExceptionHandler(new UsageErrors());
        cli.setExecutionExceptionHandler(new CommandFailures());
        cli.setHelpFactory(new ShortOptionLabels());
        return cli;
    }
}
