package org.dsload.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.remote.HostsFile;
import org.dsload.run.PlanRun;

import picocli.CommandLine.Option;

/** Which jmeter-server slaves a run uses: started for it, named, or listed in a hosts file. */
final class SlaveSelectionOptions {
    @Option(names = "--slaves", paramLabel = "<n>", converter = OptionValues.CountOrNone.class,
            description = "Start n jmeter-server slaves on 127.0.0.2, 127.0.0.3 ... for the run and stop them after it"
                    + " (default: 0, the plan runs in this JVM's JMeter).")
    private int localSlaves;

    @Option(names = "-R", paramLabel = "host:port", split = ",",
            description = "Running jmeter-server slaves to run on, comma-separated (JMeter's -R).")
    private List<String> remote = new ArrayList<>();

    @Option(names = "--hosts-file", paramLabel = "<file>",
            description = "A file naming running slaves, one host or host:port a line.")
    private List<Path> hostsFiles = new ArrayList<>();

    @Option(names = "--allow-missing-slaves",
            description = "Go on without slaves that cannot be reached at the start; the summary names them.")
    private boolean allowMissing;

    @Option(names = "--rmi-hostname", paramLabel = "<address>",
            description = "The address of this machine the slaves call back (java.rmi.server.hostname).")
    private String rmiHostname;

    void applyTo(PlanRun run) throws IOException {
        List<String> hosts = new ArrayList<>(remote);
        for (Path file : hostsFiles) {
            HostsFile.read(file).forEach(h -> hosts.add(h.toString()));
        }
        run.remoteHosts(hosts).localSlaves(localSlaves).allowMissingSlaves(allowMissing).rmiHostname(rmiHostname);
    }
}
