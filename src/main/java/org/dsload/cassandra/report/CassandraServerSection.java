package org.dsload.cassandra.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.dsload.gauges.GaugeChart;
import org.dsload.gauges.GaugeChart.Panel;
import org.dsload.gauges.GaugeChart.Series;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeText;
import org.dsload.gauges.NodeGauges;
import org.dsload.gauges.ServerGaugeSection;

/**
 * The Cassandra nodes' side of a run ({@value #NAME}: virtual tables of every node each second):
 * coordinator throughput and p99 of the user tables, thread pools (S5's lesson: "all normal"
 * monitoring while the cluster was slow), connections and caches, and the reads and writes the
 * samplers sent checked against the coordinators' counts.
 */
public final class CassandraServerSection extends ServerGaugeSection {

    @Override
    public int order() {
        return 910;
    }
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
            GaugeText.rate("local writes/s", "local_writes"),
            GaugeText.level("local read p99 ms", "local_reads_p99_ms"),
            GaugeText.level("local write p99 ms", "local_writes_p99_ms"));
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

    public CassandraServerSection() {
        super(FILE, "Cassandra server gauges (system_views, every second; min-max over the run; user tables)",
                "virtual tables read on each node through a session of its own");
    }

    @Override
    protected void body(Map<String, NodeGauges> nodes, Map<String, Long> sent, StringBuilder out) {
        out.append(GaugeText.table(nodes.values(), REQUESTS));
        out.append("Thread pools and key cache:\n");
        out.append(GaugeText.table(nodes.values(), POOLS));
        long reads = sent.getOrDefault("reads", 0L);
        long writes = sent.getOrDefault("writes", 0L);
        if (reads + writes > 0) {
            out.append(GaugeText.crossCheck(nodes, reads, List.of(READS, SCANS),
                    "reads (requests and pages; coordinator reads and range reads)"));
            out.append(GaugeText.crossCheck(nodes, writes, List.of(WRITES),
                    "writes (coordinator writes, one per table a batch changes)"));
        }
    }
}
