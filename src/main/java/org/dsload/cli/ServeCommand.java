package org.dsload.cli;

import java.nio.file.Path;
import java.util.List;

import org.dsload.serve.Serve;
import org.dsload.serve.ServeRequest;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dsload serve}: real servers to point the shipped plans at, until Ctrl-C or SIGTERM. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Start real servers on free loopback ports and print, for each, the -J properties that point"
                + " the shipped plans at it; stop them all on Ctrl-C or SIGTERM (or when one ends). A target's options"
                + " follow its name: serve cassandra --nodes 3 kairosdb --datastore cassandra."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"  0:stopped by Ctrl-C or SIGTERM, every server stopped", "  1:a target could not start (the"
                + " others were stopped), or a server ended on its own (with --keep-going: every server)",
            ExitCodes.USAGE_LINE})
final class ServeCommand extends Subcommand {
    @Parameters(paramLabel = "<target> [<option> <value>]", arity = "1..*",
            description = "What to start: redis [--logins], redis-cluster, cassandra [--nodes 1|3] [--logins], zookeeper"
                    + " [--nodes 1|3|5], kairosdb [--datastore h2|cassandra] [--logins], influxdb; several at once."
                    + " --logins: the server requires a password, which the printed -J properties name as env:NAME.")
    private List<String> targets;

    @Option(names = "--data", paramLabel = "<dir>",
            description = "Keep the servers' data (and their ports) in this folder across runs (default: a fresh"
                    + " folder under target/serve/, deleted at the end).")
    private Path data;

    @Option(names = "--keep-going", description = "Serve on when a server (a member of an ensemble or cluster) ends on"
            + " its own, as fault tests that kill members need; serve ends when every server has.")
    private boolean keepGoing;

    /** A target's own options (--nodes, --datastore) stand among the targets, in order: serve reads them itself. */
    @Spec
    void targetOptionsAmongTargets(CommandSpec command) {
        command.parser().unmatchedOptionsArePositionalParams(true);
    }

    @Override
    public Integer call() throws InterruptedException {
        ServeRequest request;
        try {
            request = ServeRequest.parse(targets, data, keepGoing);
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
        return Serve.run(request, out());
    }
}
