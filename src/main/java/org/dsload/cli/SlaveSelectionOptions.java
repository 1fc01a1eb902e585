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
            description = "Go on without slaves that cannot be reached at the start (as --min-slaves 1); the summary"
                    + " names them.")
    private boolean allowMissing;

    @Option(names = "--min-slaves", paramLabel = "<k>", converter = OptionValues.Count.class,
            description = "Go on when at least k of the run's slaves can be reached at the start, without the others"
                    + " (named with why on the console and in the summary); refuse the run (exit code 7) with fewer."
                    + " Default: every slave; the JMeter property " + PlanRun.MIN_SLAVES_PROPERTY + ".")
    private Integer minSlaves;

    @Option(names = "--rmi-hostname", paramLabel = "<address>",
            description = "The address of this machine the slaves call back (java.rmi.server.hostname).")
    private String rmiHostname;

    void applyTo(PlanRun run) throws IOException {
        run.remoteHosts(hosts()).localSlaves(localSlaves).allowMissingSlaves(allowMissing).rmiHostname(rmiHostname);
        if (minSlaves != null) {
            run.minSlaves(minSlaves);
        }
    }

    private List<String> hosts() throws IOException {
        List<String> hosts = new ArrayList<>(remote);
        for (Path file : hostsFiles) {
            HostsFile.read(file).forEach(h -> hosts.add(h.toString()));
        }
        return hosts;
    }

    /**
     * What is wrong with the least number of slaves asked for ({@code --min-slaves}, else the
     * property), before anything runs: not a whole number above 0, more than the run's slaves, or a
     * run without slaves; null when nothing is.
     */
    String problem(PropertyOptions properties) {
        int least;
        String what;
        if (minSlaves != null) {
            least = minSlaves;
            what = "--min-slaves " + minSlaves;
        } else {
            String value = properties.value(PlanRun.MIN_SLAVES_PROPERTY);
            if (value == null) {
                return null;
            }
            what = PlanRun.MIN_SLAVES_PROPERTY + "=" + value;
            try {
                least = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                least = 0;
            }
            if (least < 1) {
                return what + ": the least number of slaves must be a whole number above 0";
            }
        }
        int named;
        try {
            named = hosts().size() + localSlaves;
        } catch (IOException e) {
            return null; // the hosts file's problem is said when the run reads it
        }
        if (named == 0) {
            return what + " needs slaves: --slaves <n>, -R host:port,... or --hosts-file <file>";
        }
        if (least > named) {
            return what + " asks for more slaves than the run has (" + named + ")";
        }
        return null;
    }
}
