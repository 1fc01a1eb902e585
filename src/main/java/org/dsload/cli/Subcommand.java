package org.dsload.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What every dsload command has: the console it prints to and a way to refuse its command line.
 * A command is a {@code @Command} class extending this one, listed in {@link DsloadCommand}.
 */
abstract class Subcommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the command prints its results (the report code takes a PrintStream). */
    PrintStream out() {
        return ((DsloadCommand) spec.root().userObject()).out();
    }

    /** Where the command reports what went wrong, for code that takes a PrintStream. */
    PrintStream err() {
        return ((DsloadCommand) spec.root().userObject()).err();
    }

    /** A usage error (exit code 2) about this command's arguments, reported like a parse error. */
    ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
