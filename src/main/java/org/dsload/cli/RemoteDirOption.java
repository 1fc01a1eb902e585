package org.dsload.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** {@code --remote-dir}: where the RMI keystore and the slaves' PID and hosts files live. */
final class RemoteDirOption {
    static final String ENV = "DSLOAD_REMOTE_DIR";

    @Option(names = "--remote-dir", paramLabel = "<dir>",
            description = "Folder of the RMI keystore and of the slaves' PID and hosts files"
                    + " (default: $" + ENV + ", else remote-servers; bin/dsload sets it to the project's).")
    private Path dir;

    /** The option as given on the command line, to repeat in a hint (" --remote-dir <dir>"); empty when it was not given. */
    String given() {
        return dir == null ? "" : " --remote-dir " + dir;
    }

    Path dir() {
        if (dir != null) {
            return dir;
        }
        String env = System.getenv(ENV);
        return env != null && !env.isBlank() ? Path.of(env) : Path.of("remote-servers");
    }
}
