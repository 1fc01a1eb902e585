package org.dsload.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** Where a run writes: {@code <results>/<run-id>/}. */
final class ResultsOptions {
    @Option(names = "--results", paramLabel = "<dir>", defaultValue = "results",
            description = "Folder of the run folders (default: ${DEFAULT-VALUE}).")
    Path root;

    @Option(names = "--run-id", paramLabel = "<id>",
            description = "Name of the run folder (default: the start time and the plan's name); a name already "
                    + "taken gets -2, -3 and so on.")
    String runId;
}
