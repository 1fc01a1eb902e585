package org.dsload.kairosdb;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.dsload.gauges.GaugeSource;
import org.dsload.gauges.HttpGauges;
import org.dsload.kairosdb.report.KairosDbServerSection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * KairosDB's own metrics, which its reporter writes into KairosDB itself (kairosdb.* series,
 * tagged with the reporting host): one query a second for the seconds that ended at least
 * {@value #LAG_MILLIS} ms ago and were not read yet, one value per second, since a point reaches
 * the datastore through KairosDB's queue a moment after its time stamp. One line per KairosDB host; the nodes of a cluster share a
 * datastore, so the first URL that answers speaks for all of them.
 */
final class KairosDbMetricsSource implements GaugeSource {
    static final long LAG_MILLIS = 2000;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String HOST = "host";
    private static final String METRIC_NAME = "metric_name";

    /** A column: a KairosDB metric and how a second of its points becomes one value. */
    private record Figure(String column, String metric, String aggregator) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("queries_waiting", "kairosdb.datastore.queries_waiting", "max"),
            new Figure("requests", "kairosdb.http.request_time", "count"),
            new Figure("request_time_avg_ms", "kairosdb.http.request_time", "avg"),
            new Figure("request_time_max_ms", "kairosdb.http.request_time", "max"),
            new Figure("query_time_max_ms", "kairosdb.http.query_time", "max"),
            new Figure("datastore_query_time_max_ms", "kairosdb.datastore.query_time", "max"),
            new Figure("ingested", "kairosdb.http.ingest_count", "sum"),
            new Figure("ingest_time_max_ms", "kairosdb.http.ingest_time", "max"),
            new Figure("http_requests", "kairosdb.protocol.http_request_count", "sum"),
            new Figure("memory_queue", "kairosdb.queue.memory_queue.size", "max"),
            new Figure("file_queue", "kairosdb.queue.file_queue.size", "max"),
            new Figure("queue_processed", "kairosdb.queue.process_count", "sum"),
            new Figure("write_batch_max", "kairosdb.datastore.cassandra.write_batch_size", "max"));

    private final List<URI> nodes;
    private final HttpGauges http;
    private final String name;
    private boolean seenHost;
    /** The first second not read yet; 0 before the first reading. */
    private long next;

    KairosDbMetricsSource(List<URI> nodes, HttpGauges http) {
        this.nodes = List.copyOf(nodes);
        this.http = http;
        this.name = "KairosDB " + nodes.get(0).getAuthority() + (nodes.size() > 1 ? " (+" + (nodes.size() - 1) + ")" : "");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Reading> read(long now) throws Refused, IOException {
        long end = Math.floorDiv(now - LAG_MILLIS, 1000) * 1000;
        long start = next == 0 ? end - 1000 : next;
        if (start >= end) {
            return List.of(); // no second has passed the lag since the last reading
        }
        String query = query(start, end - 1);
        IOException last = null;
        for (URI node : nodes) {
            try {
                List<Reading> readings = readings(MAPPER.readTree(http.call(node.resolve(KairosDbPaths.QUERY), query)),
                        start);
                next = end;
                return readings;
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    /** The query for the whole seconds from {@code start} to {@code end} (both included), one value per second. */
    static String query(long start, long end) {
        ObjectNode query = MAPPER.createObjectNode();
        query.put("start_absolute", start);
        query.put("end_absolute", end);
        ArrayNode metrics = query.putArray("metrics");
        for (Figure f : FIGURES) {
            ObjectNode metric = metrics.addObject();
            metric.put("name", f.metric());
            metric.putArray("group_by").addObject().put("name", "tag").putArray("tags").add(HOST);
            aggregate(metric, f.aggregator());
        }
        ObjectNode counters = metrics.addObject();
        counters.put("name", "kairosdb.metric_counters");
        counters.putArray("group_by").addObject().put("name", "tag").putArray("tags").add(METRIC_NAME);
        aggregate(counters, "sum");
        return query.toString();
    }

    /** One value per second, the seconds counted from the query's start. */
    private static void aggregate(ObjectNode metric, String aggregator) {
        ObjectNode a = metric.putArray("aggregators").addObject();
        a.put("name", aggregator);
        a.put("align_start_time", true);
        a.putObject("sampling").put("value", 1).put("unit", "seconds");
    }

    /**
     * One reading per host and second. The points counters of the metrics written
     * (kairosdb.metric_counters, which carries no host tag), KairosDB's own series left out, go
     * to the one host, or to a line of their own when several hosts report.
     */
    private List<Reading> readings(JsonNode answer, long start) {
        Map<String, Map<Long, Map<String, String>>> hosts = new LinkedHashMap<>();
        Map<Long, Long> written = new TreeMap<>();
        JsonNode queries = answer.path("queries");
        for (int i = 0; i < queries.size(); i++) {
            for (JsonNode result : queries.get(i).path("results")) {
                if (i == FIGURES.size()) {
                    String metric = result.path("tags").path(METRIC_NAME).path(0).asText("");
                    if (!metric.startsWith("kairosdb.")) {
                        result.path("values").forEach(v -> written.merge(second(v), v.get(1).asLong(), Long::sum));
                    }
                    continue;
                }
                String host = result.path("tags").path(HOST).path(0).asText("unknown host");
                String column = FIGURES.get(i).column();
                for (JsonNode v : result.path("values")) {
                    hosts.computeIfAbsent(host, h -> new TreeMap<>()).computeIfAbsent(second(v), t -> new LinkedHashMap<>())
                            .put(column, number(v.get(1).asDouble()));
                }
            }
        }
        if (!written.isEmpty()) {
            String owner = hosts.size() == 1 ? hosts.keySet().iterator().next() : "all hosts";
            Map<Long, Map<String, String>> seconds = hosts.computeIfAbsent(owner, h -> new TreeMap<>());
            written.forEach((second, points) -> seconds.computeIfAbsent(second, t -> new LinkedHashMap<>())
                    .put(KairosDbServerSection.POINTS_COUNTED, Long.toString(points)));
        }
        List<Reading> readings = new ArrayList<>();
        hosts.forEach((host, seconds) -> seconds.forEach((second, values) ->
                readings.add(new Reading(host, second, values))));
        if (readings.isEmpty() && !seenHost) {
            // Nothing yet (this source's own query shows from the next second): a KairosDB
            // whose reporter is off stays at this, which the summary points out.
            readings.add(new Reading(name, start, Map.of()));
        }
        seenHost |= !hosts.isEmpty();
        return readings;
    }

    /** The second a value of an aggregated answer stands for (KairosDB stamps it with the second's start). */
    private static long second(JsonNode value) {
        return Math.floorDiv(value.get(0).asLong(), 1000) * 1000;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
