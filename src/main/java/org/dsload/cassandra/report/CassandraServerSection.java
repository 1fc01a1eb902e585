package org.dsload.cassandra.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeChart.Panel;
import org.dsload.gauges.GaugeChart.Series;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRows;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/**
 * The Cassandra nodes' side of a run ({@value #NAME}: virtual tables of every node each second):
 * coordinator throughput and p99 of the user tables, thread pools (S5's lesson: "all normal"
 * monitoring while the cluster was slow), connections and caches, and the reads and writes the
 * samplers sent checked against the coordinators' counts.
 */
public final class CassandraServerSection implements RunSection {
    public static final String NAME = "cassandra-views.tsv";
    static final String READS = "coordinator_reads";
    static final String SCANS = "coordinator_scans";
    static final String WRITES = "coordinator_writes";
    public static final GaugeFile FILE = new GaugeFile("Cassandra", NAME, "cassandra-sent.tsv", columns());
    public static final GaugeChart CHART = new GaugeChart("Cassandra server", "chart-cassandra-server.png", FILE,
            List.of(Series.perSecond("coordinator reads", READS), Series.perSecond("coordinator range reads", SCANS),
                    Series.perSecond("coordinator writes", WRITES)),
            List.of(Series.level("coordinator read p99", READS + "_p99_ms"),
                    Series.level("coordinator write p99", WRITES + "_p99_ms")),
            List.of(new Panel("thread pools", "tasks", List.of(Series.total("pending (all pools)", "pending_total"),
                    Series.total("blocked (all pools)", "blocked_total"),
                    Series.total("native transport pending", "native_pending"))),
                    new Panel("client connections", "connections",
                            List.of(Series.total("connections", "client_connections")))));
    private static final List<GaugeText.Column> REQUESTS = List.of(
            GaugeText.level("clients", "client_connections"),
            GaugeText.rate("coord reads/s", READS),
            GaugeText.rate("range reads/s", SCANS),
            GaugeText.rate("coord writes/s", WRITES),
            GaugeText.level("read p99 ms", READS + "_p99_ms"),
            GaugeText.level("write p99 ms", WRITES + "_p99_ms"),
            GaugeText.rate("local reads/s", "local_reads"),
            GaugeText.rate("local writes/s", "local_writes"));
    private static final List<GaugeText.Column> POOLS = List.of(
            GaugeText.level("native active", "native_active"),
            GaugeText.level("native pending", "native_pending"),
            GaugeText.level("read pending", "read_pending"),
            GaugeText.level("mutation pending", "mutation_pending"),
            GaugeText.level("compaction pending", "compaction_pending"),
            GaugeText.level("pending (all)", "pending_total"),
            GaugeText.level("blocked (all)", "blocked_total"),
            GaugeText.increase("newly blocked", "blocked_all_time_total"),
            GaugeText.rate("key cache hits/s", "key_cache_hits"),
            GaugeText.rate("key cache req/s", "key_cache_requests"));

    private static List<String> columns() {
        List<String> columns = new ArrayList<>();
        for (String pool : List.of("native", "read", "mutation", "compaction", "flush")) {
            for (String figure : List.of("active", "pending", "blocked")) {
                columns.add(pool + "_" + figure);
            }
        }
        columns.addAll(List.of("active_total", "pending_total", "blocked_total", "blocked_all_time_total",
                "client_connections", "client_requests"));
        for (String counter : List.of(READS, SCANS, WRITES, "local_reads", "local_writes")) {
            columns.add(counter);
            columns.add(counter + "_p99_ms");
        }
        for (String cache : List.of("key_cache", "row_cache")) {
            for (String figure : List.of("hits", "requests", "entries", "bytes")) {
                columns.add(cache + "_" + figure);
            }
        }
        return columns;
    }

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        List<GaugeRows.Row> rows = GaugeRows.read(runDir, FILE);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Map<String, NodeGauges> nodes = NodeGauges.of(rows);
        StringBuilder out = new StringBuilder(
                "== Cassandra server gauges (system_views, every second; min-max over the run; user tables) ==\n");
        out.append(GaugeText.table(nodes.values(), REQUESTS));
        out.append("Thread pools and key cache:\n");
        out.append(GaugeText.table(nodes.values(), POOLS));
        Map<String, Long> sent = GaugeRows.counts(runDir, FILE);
        long reads = sent.getOrDefault("reads", 0L);
        long writes = sent.getOrDefault("writes", 0L);
        if (reads + writes > 0) {
            out.append(crossCheck(nodes, reads, List.of(READS, SCANS),
                    "reads (requests and pages; coordinator reads and range reads)"));
            out.append(crossCheck(nodes, writes, List.of(WRITES), "writes (coordinator writes, one per table a batch changes)"));
        }
        out.append(GaugeText.notes(nodes.values(), FILE, "virtual tables read on each node through a session of its own"));
        return Optional.of(out.toString());
    }

    /** What the samplers' session sent against the coordinators' counts from each node's first to last reading. */
    static String crossCheck(Map<String, NodeGauges> nodes, long reported, List<String> counters, String what) {
        long counted = 0;
        List<String> problems = new ArrayList<>();
        for (NodeGauges n : nodes.values()) {
            if (n.answers() == 0) {
                problems.add(n.node() + " gave no gauges");
                continue;
            }
            for (String counter : counters) {
                OptionalDouble increase = n.increase(counter);
                if (increase.isEmpty()) {
                    problems.add(n.node() + " restarted during the run");
                    break;
                }
                counted += (long) increase.getAsDouble();
            }
        }
        return GaugeText.crossCheck(reported, problems.isEmpty() ? counted : -1, what,
                String.join(", ", problems.stream().distinct().toList()));
    }
}
