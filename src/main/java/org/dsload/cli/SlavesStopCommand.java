package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

import org.dsload.process.ProcessTree;
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
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

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
            boolean gone = ProcessTree.stop(process.get(), STOP_GRACE);
            out.println("slave " + e.address() + " (pid " + e.pid() + ") " + (gone ? "stopped"
                    : "still there after SIGTERM and SIGKILL"));
        }
        Files.deleteIfExists(remoteDir.dir().resolve(SlavesCommand.PID_FILE));
        Files.deleteIfExists(remoteDir.dir().resolve(SlavesCommand.HOSTS_FILE));
        return ExitCodes.OK;
    }
}
