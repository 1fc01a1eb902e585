package org.dsload.cli;

import org.dsload.zookeeper.ZnodeCleanup;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsload zk-cleanup}: removes the znodes a ZooKeeper test left under its root (a killed run's). */
@Command(name = "zk-cleanup", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Remove a ZooKeeper test root and every znode under it: what a killed run left behind. A root"
                + " that no dsload test created (its data carries no dsload marker) is refused unless --force."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:removed, or nothing there", "  1:refused (not a dsload root), no server answered, or a delete"
                + " failed", "  2:usage error: a root that is no znode path below /, a malformed --password",
            ExitCodes.INTERRUPTED_LINE})
final class ZooKeeperCleanupCommand extends Subcommand {
    @Parameters(index = "0", paramLabel = "<connect string>", description = "The ensemble: host:port[,host:port...][/chroot].")
    private String connect;

    @Parameters(index = "1", paramLabel = "<root path>", description = "The test root to remove, e.g. /dsload-test.")
    private String root;

    @Option(names = "--user", paramLabel = "<digest user>", description = "Digest user of the session (with --password).")
    private String user = "";

    @Option(names = "--password", paramLabel = "<env:NAME|file:/path>",
            description = "The digest user's password, read from an environment variable or a file (never given literally).")
    private String password = "";

    @Option(names = "--force", description = "Remove the root even if no dsload test created it.")
    private boolean force;

    @Override
    public Integer call() throws InterruptedException {
        return ZnodeCleanup.clean(connect, root, user, password, force, out(), err());
    }
}
