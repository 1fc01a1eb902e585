package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.dsload.process.Ports;
import org.dsload.remote.SlavesPidFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dsload slaves status}: is each recorded slave running, and does it answer? */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show whether each slave recorded in <remote-dir>/" + SlavesCommand.PID_FILE
                + " runs and answers on its RMI port."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:every recorded slave runs and answers, or none is recorded",
            "  1:a slave is down or does not answer", ExitCodes.USAGE_LINE})
final class SlavesStatusCommand extends Subcommand {
    @Mixin
    private RemoteDirOption remoteDir;

    @Override
    public Integer call() throws IOException {
        PrintStream out = out();
        List<SlavesPidFile.Entry> entries = SlavesCommand.recorded(remoteDir.dir(), out);
        if (entries.isEmpty()) {
            return ExitCodes.OK;
        }
        int down = 0;
        for (SlavesPidFile.Entry e : entries) {
            boolean alive = e.process().isPresent();
            Optional<String> refused = Ports.refusal(e.address().host(), e.address().port(), Duration.ofSeconds(2));
            if (!alive || refused.isPresent()) {
                down++;
            }
            out.println("slave " + e.address() + " pid " + e.pid() + ": " + (alive ? "running" : "not running")
                    + ", " + (refused.isEmpty() ? "reachable" : "unreachable (" + refused.get() + ")") + ", log " + e.log());
        }
        return down == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
