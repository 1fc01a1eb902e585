package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.chaos.AppliedFaults;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dsload revert}: undoes the faults recorded in a run folder ({@code <run>/applied-faults}),
 * or in the well-known folder of this user when no folder is given.
 */
@Command(name = "revert", mixinStandardHelpOptions = true,
        description = {"Undo the faults a fault schedule left applied because its process died before it could:"
                + " those recorded in <run folder>/" + AppliedFaults.FOLDER + ", or else in ~/.dsload/"
                + AppliedFaults.FOLDER + "."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:every recorded fault reverted, or none recorded", "  1:a fault could not be reverted"
                + " (its record stays)", "  2:usage error, or the run folder does not exist"})
final class RevertCommand extends Subcommand {
    @Parameters(paramLabel = "<run folder>", arity = "0..1",
            description = "The run folder whose faults to revert (default: ~/.dsload/" + AppliedFaults.FOLDER + ").")
    private Path runDir;

    @Override
    public Integer call() throws IOException {
        PrintStream out = out();
        Path dir = runDir == null ? AppliedFaults.wellKnownDir() : runDir;
        if (runDir != null && !Files.isDirectory(dir)) {
            // a mistyped run folder must not read as "nothing left applied"
            throw usageError(dir + " is not a folder");
        }
        if (runDir != null && Files.isDirectory(dir.resolve(AppliedFaults.FOLDER))) {
            dir = dir.resolve(AppliedFaults.FOLDER);
        }
        List<AppliedFaults.Reverted> done = AppliedFaults.revertRecorded(dir);
        if (done.isEmpty()) {
            out.println("dsload: no applied fault recorded in " + dir);
            return ExitCodes.OK;
        }
        int failed = 0;
        for (AppliedFaults.Reverted r : done) {
            String what = r.record() == null ? "?" : r.record().label() + " (" + r.record().id() + ")";
            out.println("dsload: " + (r.ok() ? "reverted " : "FAILED to revert ") + what + ": " + r.message());
            if (!r.ok()) {
                failed++;
            }
        }
        out.println("dsload: " + (done.size() - failed) + " of " + done.size() + " fault(s) reverted"
                + (failed > 0 ? "; the failed ones keep their record in " + dir : ""));
        return failed == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
