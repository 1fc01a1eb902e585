package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.dsload.remote.SlavesPidFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dsload slaves stop}: ends exactly the slaves {@code start} recorded, by PID. */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = {"Stop the slaves recorded in <remote-dir>/" + SlavesCommand.PID_FILE + " and forget them."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:stopped, or none recorded", "  1:the PID file cannot be read", ExitCodes.USAGE_LINE,
            ExitCodes.INTERRUPTED_LINE})
final class SlavesStopCommand extends Subcommand {
    @Mixin
    private RemoteDirOption remoteDir;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintStream out = out();
        List<SlavesPidFile.Entry> entries = SlavesCommand.recorded(remoteDir.dir(), out);
        if (entries.isEmpty()) {
            return ExitCodes.OK;
        }
        for (SlavesPidFile.Entry e : entries) {
            Optional<ProcessHandle> process = e.process();
            if (process.isEmpty()) {
                out.println("slave " + e.address() + " (pid " + e.pid() + ") was not running");
                continue;
            }
            ProcessHandle p = process.get();
            p.destroy();
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException stillThere) {
                p.destroyForcibly();
            }
            out.println("slave " + e.address() + " (pid " + e.pid() + ") stopped");
        }
        Files.deleteIfExists(remoteDir.dir().resolve(SlavesCommand.PID_FILE));
        Files.deleteIfExists(remoteDir.dir().resolve(SlavesCommand.HOSTS_FILE));
        return ExitCodes.OK;
    }
}
