package org.dsload.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.dsload.remote.SlavesPidFile;

import picocli.CommandLine.Command;

/**
 * {@code dsload slaves start|stop|status|keystore}: jmeter-server slaves that outlive the command,
 * for runs started later with {@code run --hosts-file}. Their PIDs go to a file in the remote
 * folder so that {@code stop} ends exactly them.
 */
@Command(name = "slaves", mixinStandardHelpOptions = true,
        description = {"jmeter-server slaves that outlive the command (their PIDs in <remote-dir>/" + SlavesCommand.PID_FILE
                + ", their addresses in <remote-dir>/" + SlavesCommand.HOSTS_FILE + "), and the RMI keystore."},
        synopsisSubcommandLabel = "(start | stop | status | keystore)",
        commandListHeading = "%nActions:%n",
        subcommands = {SlavesStartCommand.class, SlavesStopCommand.class, SlavesStatusCommand.class,
            SlavesKeystoreCommand.class})
final class SlavesCommand extends Subcommand {
    static final String PID_FILE = SlavesPidFile.FILE;
    static final String HOSTS_FILE = "local.hosts";

    /** The slaves the last start recorded in this folder; says so when there are none. */
    static List<SlavesPidFile.Entry> recorded(Path remoteDir, PrintStream out) throws IOException {
        Path pidFile = remoteDir.resolve(PID_FILE);
        List<SlavesPidFile.Entry> entries = SlavesPidFile.read(pidFile);
        if (entries.isEmpty()) {
            out.println("no slaves recorded in " + pidFile);
        }
        return entries;
    }

    @Override
    public Integer call() {
        throw usageError("slaves needs start, stop, status or keystore");
    }
}
