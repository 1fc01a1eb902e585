package org.dsload.redis.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.dsload.core.format.GaugeTable;
import org.dsload.gauges.CounterPairs;
import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeChart.Panel;
import org.dsload.gauges.GaugeChart.Series;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;
import org.dsload.gauges.ServerGaugeSection;

/**
 * The Redis servers' side of a run ({@value #NAME}: INFO of every server each second): ranges of
 * throughput, clients, memory, hit rates and traffic, evictions and refused connections, and the
 * commands the samplers sent checked against the servers' commandstats.
 */
public final class RedisServerSection extends ServerGaugeSection {

    @Override
    public int order() {
        return 900;
    }
    public static final String NAME = "redis-info.tsv";
    /** INFO's Commandstats as {@code name=calls} pairs, one column. */
    public static final String COMMANDSTATS = "commandstats";
    static final String PROCESSED = "total_commands_processed";
    public static final GaugeFile FILE = new GaugeFile("Redis", NAME, "redis-sent.tsv", List.of("role",
            "uptime_in_seconds", "instantaneous_ops_per_sec", PROCESSED, "connected_clients", "blocked_clients",
            "used_memory", "maxmemory", "keyspace_hits", "keyspace_misses", "total_net_input_bytes",
            "total_net_output_bytes", "evicted_keys", "expired_keys", "rejected_connections",
            "total_connections_received", COMMANDSTATS));
    public static final GaugeChart CHART = new GaugeChart("Redis server", "chart-redis-server.png", FILE,
            List.of(Series.perSecond("server commands", PROCESSED)), List.of(),
            List.of(new Panel("clients", "clients", List.of(Series.total("connected", "connected_clients"),
                    Series.total("blocked", "blocked_clients"))),
                    new Panel("used memory", "MB", List.of(Series.total("used memory", "used_memory").scaled(1e6))),
                    new Panel("keyspace hits and misses", "per second", List.of(
                            Series.perSecond("hits", "keyspace_hits"), Series.perSecond("misses", "keyspace_misses"),
                            Series.perSecond("evicted", "evicted_keys")))));
    private static final List<GaugeText.Column> COLUMNS = List.of(
            new GaugeText.Column("role", n -> n.last("role")),
            GaugeText.rate("ops/s", PROCESSED),
            GaugeText.level("clients", "connected_clients"),
            GaugeText.level("blocked", "blocked_clients"),
            GaugeText.level("used memory MB", "used_memory", 1e6),
            GaugeText.rate("hits/s", "keyspace_hits"),
            GaugeText.rate("misses/s", "keyspace_misses"),
            GaugeText.rate("in kB/s", "total_net_input_bytes", 1e3),
            GaugeText.rate("out kB/s", "total_net_output_bytes", 1e3),
            GaugeText.increase("evicted", "evicted_keys"),
            GaugeText.increase("rejected conns", "rejected_connections"));

    public RedisServerSection() {
        super(FILE, "Redis server gauges (INFO, every second; min-max over the run)",
                "INFO on a connection of its own per server");
    }

    @Override
    protected void body(Map<String, NodeGauges> nodes, Map<String, Long> sent, StringBuilder out) {
        out.append(GaugeText.table(nodes.values(), COLUMNS));
        if (sent.values().stream().mapToLong(Long::longValue).sum() > 0) {
            out.append(crossCheck(nodes, sent));
        }
    }

    /**
     * The commands the samplers sent against the calls of those commands in the primaries'
     * commandstats between their first and last reading (replicas replay their primary's writes).
     */
    static String crossCheck(Map<String, NodeGauges> nodes, Map<String, Long> sent) {
        long reported = sent.values().stream().mapToLong(Long::longValue).sum();
        String what = "commands " + sent.keySet().stream().map(c -> c.toUpperCase(Locale.ROOT))
                .collect(Collectors.joining(", ")) + " (commandstats calls of the primaries from test start to end)";
        long counted = 0;
        List<String> problems = new ArrayList<>();
        for (NodeGauges n : nodes.values()) {
            if (n.answers() > 0 && n.last("role").equals("slave")) {
                continue;
            }
            String notCounted = n.notCounted();
            if (notCounted != null) {
                problems.add(notCounted);
                continue;
            }
            if (n.increase(PROCESSED).isEmpty()) {
                problems.add(n.node() + " restarted during the run");
                continue;
            }
            List<GaugeTable.Row> answers = n.rows();
            Map<String, Long> first = calls(answers.get(0).text(COMMANDSTATS));
            Map<String, Long> last = calls(answers.get(answers.size() - 1).text(COMMANDSTATS));
            for (String command : sent.keySet()) {
                counted += calls(last, command) - calls(first, command);
            }
            if (sent.containsKey("info")) {
                // every reading but the last is an INFO the server counted before that last reading
                counted -= answers.size() - 1;
            }
        }
        return GaugeText.crossCheck(reported, problems.isEmpty() ? counted : -1, what, String.join(", ", problems));
    }

    /** Calls of a command: its own line, and its subcommands' lines ({@code config|get}) on Redis 7. */
    private static long calls(Map<String, Long> stats, String command) {
        long total = 0;
        for (Map.Entry<String, Long> e : stats.entrySet()) {
            if (e.getKey().equals(command) || e.getKey().startsWith(command + "|")) {
                total += e.getValue();
            }
        }
        return total;
    }

    /** The calls per command of a {@value #COMMANDSTATS} value. */
    static Map<String, Long> calls(String commandstats) {
        return CounterPairs.parse(commandstats);
    }
}
