package org.dsload.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code dsload}: the command every other one hangs under. A new command is a class extending
 * {@link Subcommand}, added to {@code subcommands} below and described in docs/cli.md. How usage
 * errors and failures are reported is wired here too.
 */
@Command(name = "dsload", mixinStandardHelpOptions = true, versionProvider = DsloadCommand.Version.class,
        description = "Load tests of data stores with Apache JMeter 5.6: serve test targets, run plans, judge and"
                + " summarise results.",
        synopsisSubcommandLabel = "<command>",
        commandListHeading = "%nCommands:%n",
        footerHeading = "%n",
        footer = {"`dsload <command> --help` shows the options of a command; docs/cli.md describes them all."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, "  1:the command failed (a limit not kept, a run that failed ...)",
            ExitCodes.USAGE_LINE, ExitCodes.NO_SUCCESS_LINE + " (run)", ExitCodes.REFUSED_LINE + " (run)",
            ExitCodes.INTERRUPTED_LINE},
        subcommands = {
            RunCommand.class,
            ServeCommand.class,
            ScenariosCommand.class,
            SummaryCommand.class,
            CheckCommand.class,
            CompareCommand.class,
            FindMaxCommand.class,
            SlavesCommand.class,
            RevertCommand.class,
            ProxyCommand.class,
            InstallCommand.class,
            ZooKeeperCleanupCommand.class,
            JvmOptionsCommand.class,
            CommandLine.HelpCommand.class,
        })
final class DsloadCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Spec
    CommandSpec spec;

    DsloadCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    /** The command line, reporting usage errors and failures on {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        // picocli looks for Groovy closures in annotations when Groovy is on the class path, as it
        // is in JMeter's lib/; initialising Groovy for that costs about a second at every start.
        System.setProperty("picocli.disable.closures", "true");
        CommandLine cli = new CommandLine(new DsloadCommand(out, err));
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

    /** Without a command: the list of commands, and the usage-error code. */
    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return ExitCodes.USAGE;
    }

    /** The version in the jar's manifest; a build's classes folder has none. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = DsloadCommand.class.getPackage().getImplementationVersion();
            return new String[] {"dsload " + (version != null ? version : "(not built as a jar)")
                    + " for Apache JMeter 5.6, on Java " + Runtime.version()};
        }
    }
}
