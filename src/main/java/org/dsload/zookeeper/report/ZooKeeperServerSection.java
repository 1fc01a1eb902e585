package org.dsload.zookeeper.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.dsload.core.format.RunFiles;
import org.dsload.gauges.EngineCounts;
import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.NodeGauges;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/**
 * The ranges of the ZooKeeper servers' {@code mntr} gauges over a run (zk-mntr.tsv, one line per
 * server per second), next to the client figures; when a server was out (unreachable, or
 * answering without serving requests), from when to when; warns when outstanding requests passed
 * the level S4 found to predict instability; and the samplers' reads and writes checked against
 * the servers' per-namespace counters ({@link NamespaceCrossCheck}).
 */
public final class ZooKeeperServerSection implements RunSection {

    @Override
    public int order() {
        return 300;
    }
    static final String FILE = "zk-mntr.tsv";
    static final long OUTSTANDING_WARNING = 300;
    private static final String UNREACHABLE = "unreachable";
    private static final String NOT_SERVING = "not-serving";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    /** Minimum and maximum of one gauge. */
    private static final class Range {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;

        void add(double v) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }

        boolean empty() {
            return min == Double.MAX_VALUE;
        }

        String text() {
            if (empty()) {
                return "-";
            }
            // "min-max" would read "-1-1" for a range from -1 to 1
            return min == max ? number(min) : number(min) + (min < 0 ? " to " : "-") + number(max);
        }

        private static String number(double v) {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
        }
    }

    /** A stretch of polls in which a server was out, in one state. */
    private static final class Outage {
        final String state;
        final long from;
        long to;
        long polls = 1;

        Outage(String state, long at) {
            this.state = state;
            this.from = at;
            this.to = at;
        }
    }

    /** What one server showed over the run. */
    private static final class Server {
        final Set<String> states = new LinkedHashSet<>();
        final Map<String, Range> ranges = new LinkedHashMap<>();
        final List<Outage> outages = new ArrayList<>();
        /** The outage the last poll belonged to, or null if the server served then. */
        Outage current;
        long polls;
        long unreachable;
        long notServing;

        Range range(String key) {
            return ranges.computeIfAbsent(key, k -> new Range());
        }

        void out(String state, long at) {
            if (current != null && current.state.equals(state)) {
                current.to = Math.max(current.to, at);
                current.polls++;
            } else {
                current = new Outage(state, at);
                outages.add(current);
            }
        }
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        // Every engine that ran a ZooKeeper Connection polled the servers: their files add up.
        Map<String, Server> servers = new LinkedHashMap<>();
        for (Path file : RunFiles.find(runDir, FILE)) {
            if (Files.isRegularFile(file)) {
                read(file, servers);
            }
        }
        if (servers.isEmpty()) {
            return Optional.empty();
        }
        EngineCounts sent = EngineCounts.read(runDir, ZooKeeperServerChart.FILE, summary);
        String crossCheck = sent.named(NamespaceCrossCheck.render(sent.compared(NodeGauges.of(GaugeRows.read(runDir,
                ZooKeeperServerChart.FILE), GaugeRows.engines(runDir, ZooKeeperServerChart.FILE,
                EngineCounts.lostSlaves(runDir)))), sent.counts()));
        return Optional.of(render(servers, crossCheck));
    }

    private static void read(Path file, Map<String, Server> servers) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String headerLine = in.readLine();
            if (headerLine == null) {
                return;
            }
            List<String> header = List.of(headerLine.split("\t", -1));
            String line;
            while ((line = in.readLine()) != null) {
                String[] cells = line.split("\t", -1);
                if (cells.length != header.size()) {
                    continue;
                }
                Server server = servers.computeIfAbsent(cells[1], s -> new Server());
                server.polls++;
                long at;
                try {
                    at = Long.parseLong(cells[0]);
                } catch (NumberFormatException e) {
                    at = 0;
                }
                for (int i = 2; i < cells.length; i++) {
                    String key = header.get(i);
                    if (key.equals("zk_server_state")) {
                        if (cells[i].equals(UNREACHABLE) || cells[i].equals(NOT_SERVING)) {
                            if (cells[i].equals(UNREACHABLE)) {
                                server.unreachable++;
                            } else {
                                server.notServing++;
                            }
                            server.out(cells[i], at);
                        } else {
                            server.states.add(cells[i]);
                            server.current = null;
                        }
                    } else if (!cells[i].isEmpty()) {
                        try {
                            server.range(key).add(Double.parseDouble(cells[i]));
                        } catch (NumberFormatException e) {
                            // a gauge this version writes differently: leave it out
                        }
                    }
                }
            }
        }
    }

    private static String render(Map<String, Server> servers, String crossCheck) {
        StringBuilder out = new StringBuilder("== ZooKeeper server gauges (mntr, every second; min-max over the run) ==\n");
        out.append(String.format(Locale.ROOT, "%-22s %-16s %6s %-16s %-16s %-12s %-12s %-20s %-14s %s%n", "server",
                "mode", "polls", "znodes", "watches", "connections", "outstanding", "data size (bytes)",
                "avg latency ms", "max latency ms"));
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, Server> e : servers.entrySet()) {
            Server s = e.getValue();
            String mode = String.join("/", s.states) + (s.unreachable > 0 ? (s.states.isEmpty() ? "" : "/") + UNREACHABLE
                    + " " + s.unreachable + "x" : "") + (s.notServing > 0 ? (s.states.isEmpty() && s.unreachable == 0
                    ? "" : "/") + NOT_SERVING + " " + s.notServing + "x" : "");
            out.append(String.format(Locale.ROOT, "%-22s %-16s %6d %-16s %-16s %-12s %-12s %-20s %-14s %s%n", e.getKey(),
                    mode, s.polls, s.range("zk_znode_count").text(), s.range("zk_watch_count").text(),
                    s.range("zk_num_alive_connections").text(), s.range("zk_outstanding_requests").text(),
                    s.range("zk_approximate_data_size").text(), s.range("zk_avg_latency").text(),
                    s.range("zk_max_latency").text()));
            Range outstanding = s.range("zk_outstanding_requests");
            if (!outstanding.empty() && outstanding.max > OUTSTANDING_WARNING) {
                warnings.add(String.format(Locale.ROOT, "Warning: outstanding requests reached %.0f on %s (above %d, "
                        + "the level S4 found to come before instability)", outstanding.max, e.getKey(), OUTSTANDING_WARNING));
            }
        }
        for (Map.Entry<String, Server> e : servers.entrySet()) {
            for (Outage o : e.getValue().outages) {
                out.append(String.format(Locale.ROOT, "%s was %s from %s to %s (%d %s)%n", e.getKey(), o.state.equals(UNREACHABLE) ? "unreachable" : "not serving requests",
                        TIME.format(Instant.ofEpochMilli(o.from)), TIME.format(Instant.ofEpochMilli(o.to)), o.polls,
                        o.polls == 1 ? "poll" : "polls"));
            }
        }
        warnings.forEach(w -> out.append(w).append('\n'));
        out.append(crossCheck);
        out.append("(each poll is one short connection of its own; the figures: ").append(FILE).append(")\n");
        return out.toString();
    }
}
