package org.dsload.influxdb;

import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.dsload.gauges.GaugeSource;
import org.dsload.gauges.HttpGauges;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One InfluxDB 1.x server's {@code /debug/vars}: its HTTP service's write requests and points
 * (written, failed, dropped), the write path's drops and errors, the TSM cache's size and
 * compactions summed over shards, heap and series. A 401, 403 or 404 (InfluxDB 2 has no
 * /debug/vars) is a refusal.
 */
final class InfluxDbVarsSource implements GaugeSource {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** {@code <statistic name>.<value>} of /debug/vars, summed into a column. */
    private static final Map<String, String> SUMS = Map.ofEntries(
            Map.entry("httpd.req", "http_requests"),
            Map.entry("httpd.writeReq", "write_requests"),
            Map.entry("httpd.queryReq", "query_requests"),
            Map.entry("httpd.pointsWrittenOK", "points_written_ok"),
            Map.entry("httpd.pointsWrittenFail", "points_written_fail"),
            Map.entry("httpd.pointsWrittenDropped", "points_written_dropped"),
            Map.entry("httpd.clientError", "client_errors"),
            Map.entry("httpd.serverError", "server_errors"),
            Map.entry("httpd.writeReqActive", "write_requests_active"),
            Map.entry("httpd.writeReqBytes", "write_bytes"),
            Map.entry("httpd.writeReqDurationNs", "write_duration_ns"),
            Map.entry("httpd.authFail", "auth_failures"),
            Map.entry("write.pointReq", "point_requests"),
            Map.entry("write.writeDrop", "write_drop"),
            Map.entry("write.writeError", "write_error"),
            Map.entry("write.writeTimeout", "write_timeout"),
            Map.entry("tsm1_cache.memBytes", "cache_bytes"),
            Map.entry("tsm1_cache.writeDropped", "cache_write_dropped"),
            Map.entry("tsm1_cache.writeErr", "cache_write_errors"),
            Map.entry("tsm1_cache.snapshotCount", "cache_snapshots"),
            Map.entry("runtime.HeapAlloc", "heap_bytes"),
            Map.entry("runtime.NumGoroutine", "goroutines"),
            Map.entry("database.numSeries", "series"));
    /** Compaction kinds of tsm1_engine, each with Compactions, CompactionsActive, CompactionQueue, CompactionErr. */
    private static final List<String> COMPACTIONS = List.of("cache", "tsmLevel1", "tsmLevel2", "tsmLevel3", "tsmFull",
            "tsmOptimize");

    private final URI vars;
    private final String name;
    private final HttpGauges http;

    InfluxDbVarsSource(URI base, HttpGauges http) {
        this.vars = base.resolve("debug/vars");
        this.name = base.getAuthority();
        this.http = http;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Reading> read(long now) throws Refused, IOException {
        return List.of(new Reading(name, now, parse(MAPPER.readTree(http.call(vars, null)))));
    }

    static Map<String, String> parse(JsonNode vars) {
        Map<String, Long> sums = new HashMap<>();
        for (Iterator<JsonNode> it = vars.elements(); it.hasNext();) {
            JsonNode statistic = it.next();
            String kind = statistic.path("name").asText("");
            JsonNode values = statistic.path("values");
            for (Iterator<Map.Entry<String, JsonNode>> v = values.fields(); v.hasNext();) {
                Map.Entry<String, JsonNode> value = v.next();
                String column = SUMS.get(kind + "." + value.getKey());
                if (column != null && value.getValue().isNumber()) {
                    sums.merge(column, value.getValue().asLong(), Long::sum);
                }
            }
            if (kind.equals("tsm1_engine")) {
                for (String compaction : COMPACTIONS) {
                    sums.merge("compactions", values.path(compaction + "Compactions").asLong(), Long::sum);
                    sums.merge("compactions_active", values.path(compaction + "CompactionsActive").asLong(), Long::sum);
                    sums.merge("compaction_queue", values.path(compaction + "CompactionQueue").asLong(), Long::sum);
                    sums.merge("compaction_errors", values.path(compaction + "CompactionErr").asLong(), Long::sum);
                }
            }
        }
        Map<String, String> text = new HashMap<>();
        sums.forEach((k, v) -> text.put(k, Long.toString(v)));
        return text;
    }
}
