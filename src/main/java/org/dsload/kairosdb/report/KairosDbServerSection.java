package org.dsload.kairosdb.report;

import java.util.Collection;
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
 * KairosDB's side of a run ({@value #NAME}: its own metrics, per second and KairosDB host): the
 * queries it served and how long they took, queries waiting for the datastore (where S1's read
 * capacity ended), points ingested, how long ingesting took, and what was queued. KairosDB
 * writes these series only while its reporter is on; the section says so when there were none.
 */
public final class KairosDbServerSection extends ServerGaugeSection {

    @Override
    public int order() {
        return 920;
    }
    public static final String NAME = "kairosdb-metrics.tsv";
    /** Points KairosDB counted in (kairosdb.metric_counters) for every metric but its own. */
    public static final String POINTS_COUNTED = "points_counted";
    public static final GaugeFile FILE = new GaugeFile("KairosDB", NAME, "kairosdb-sent.tsv", List.of(
            "queries_waiting", "requests", "request_time_avg_ms", "request_time_max_ms", "query_time_max_ms",
            "datastore_query_time_max_ms", "ingested", "ingest_time_max_ms", "http_requests", "memory_queue",
            "file_queue", "queue_processed", "write_batch_max", POINTS_COUNTED));
    public static final GaugeChart CHART = new GaugeChart("KairosDB server", "chart-kairosdb-server.png", FILE,
            List.of(Series.total("KairosDB queries", "requests"), Series.total("points ingested", "ingested")),
            List.of(Series.level("query time max", "request_time_max_ms"),
                    Series.level("ingest time max", "ingest_time_max_ms")),
            List.of(new Panel("queries waiting for the datastore", "queries",
                    List.of(Series.level("queries waiting", "queries_waiting"))),
                    new Panel("ingest queue", "points", List.of(Series.total("memory queue", "memory_queue"),
                            Series.total("file queue", "file_queue")))));
    private static final List<GaugeText.Column> COLUMNS = List.of(
            GaugeText.level("queries/s", "requests"),
            GaugeText.level("query avg ms", "request_time_avg_ms"),
            GaugeText.level("query max ms", "request_time_max_ms"),
            GaugeText.level("datastore max ms", "datastore_query_time_max_ms"),
            GaugeText.level("queries waiting", "queries_waiting"),
            GaugeText.level("ingested/s", "ingested"),
            GaugeText.level("ingest max ms", "ingest_time_max_ms"),
            GaugeText.level("queue", "memory_queue"),
            GaugeText.level("file queue", "file_queue"),
            GaugeText.level("write batch max", "write_batch_max"),
            GaugeText.level("points counted/s", POINTS_COUNTED));

    public KairosDbServerSection() {
        super(FILE, "KairosDB server gauges (its own kairosdb.* metrics, per second; min-max over the run)",
                "one query a second for the seconds that ended 2 s before; its own request is among the queries; "
                        + "figures KairosDB reports on a schedule (ingested, queue, points counted) come once per "
                        + "reporting period");
    }

    @Override
    protected void body(Map<String, NodeGauges> nodes, Map<String, Long> sent, StringBuilder out) {
        boolean anyReported = nodes.values().stream().anyMatch(KairosDbServerSection::reported);
        Collection<NodeGauges> rows = nodes.values();
        if (anyReported) {
            // the line of a second before KairosDB's first report says nothing once there are hosts
            nodes.values().removeIf(n -> n.answers() > 0 && !reported(n));
            // KairosDB's figures come by the host it names; an address that never answered a poll has
            // none, and the note under the table says it went unanswered
            rows = nodes.values().stream().filter(n -> n.answers() > 0).toList();
        }
        out.append(GaugeText.table(rows, COLUMNS));
        if (!anyReported) {
            out.append("KairosDB reported none of its own metrics during the run: turn its reporter on "
                    + "(kairosdb.reporter.schedule in kairosdb.conf, a Quartz cron; \"* * * * * ?\" reports "
                    + "every second)\n");
        }
    }

    /** Whether KairosDB reported any of its metrics for this host. */
    private static boolean reported(NodeGauges n) {
        return n.rows().stream().anyMatch(r -> !r.values().isEmpty());
    }
}
