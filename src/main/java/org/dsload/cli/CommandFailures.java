package org.dsload.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns what a command throws into a message and an exit code: a file or server problem is
 * reported by its message alone, an interrupt by 130; anything else is a fault of dsload and
 * keeps its stack trace after the message.
 */
final class CommandFailures implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            err.println("dsload: interrupted");
            err.flush();
            return ExitCodes.INTERRUPTED;
        }
        boolean expected = e instanceof IOException || e instanceof UncheckedIOException
                || e instanceof IllegalStateException || e instanceof IllegalArgumentException;
        err.println("dsload: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        if (!expected || e.getMessage() == null) {
            e.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.FAILED;
    }
}
