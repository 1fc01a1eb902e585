package org.dsload.cli;

import java.io.PrintWriter;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a wrong command line in a few lines on stderr: what is wrong, the likely meant option
 * when one was misspelt, and where the options are described; not the whole usage text, in which
 * the one line that matters is easily missed.
 */
final class UsageErrors implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        PrintWriter err = command.getErr();
        String unknown = e instanceof UnmatchedArgumentException unmatched ? unknown(unmatched) : null;
        if (unknown != null) {
            // Only the first word: picocli also names the values after it, which reads as if they were options.
            List<String> suggestions = ((UnmatchedArgumentException) e).getSuggestions();
            err.println(name + ": " + unknown + ": '" + ((UnmatchedArgumentException) e).getUnmatched().get(0) + "'"
                    + (suggestions.isEmpty() ? "" : ". Possible solutions: " + String.join(", ", suggestions)));
        } else if (countOption(e) != null) {
            String count = ((UnmatchedArgumentException) e).getUnmatched().get(0);
            String option = countOption(e);
            err.println(name + ": unexpected argument '" + count + "': a number is given with " + option + ", as in '"
                    + name + " " + option + " " + count + "'");
        } else {
            err.println(name + ": " + e.getMessage());
        }
        err.println("See '" + name + " --help' for its options.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * The option that takes a count ({@code <n>}) when the first unmatched word is a whole number and
     * the command has one ({@code slaves start 2} for {@code -n 2}), else null.
     */
    private static String countOption(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()
                || !unmatched.getUnmatched().get(0).matches("\\d+")) {
            return null;
        }
        for (OptionSpec option : e.getCommandLine().getCommandSpec().options()) {
            if ("<n>".equals(option.paramLabel())) {
                return option.shortestName();
            }
        }
        return null;
    }

    /** "Unknown option" or "Unknown command" when the first unmatched word is one, else null. */
    private static String unknown(UnmatchedArgumentException e) {
        if (e.isUnknownOption()) {
            return "Unknown option";
        }
        boolean takesCommands = !e.getCommandLine().getSubcommands().isEmpty();
        return takesCommands && !e.getUnmatched().isEmpty() ? "Unknown command" : null;
    }
}
