package org.dsload.influxdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

/** /debug/vars as InfluxDB 1.6 serves it, and the writes counted on the client's side. */
class InfluxDbReadingsTest {

    @Test
    void statisticsOfEveryShardAreSummedIntoTheColumns() throws Exception {
        String vars = """
                {"httpd:127.0.0.1:8086": {"name": "httpd", "tags": {"bind": "127.0.0.1:8086"},
                  "values": {"writeReq": 5, "pointsWrittenOK": 10, "pointsWrittenFail": 2, "serverError": 1, "req": 8}},
                 "tsm1_cache:/d/1": {"name": "tsm1_cache", "tags": {}, "values": {"memBytes": 198, "writeDropped": 0}},
                 "tsm1_cache:/d/2": {"name": "tsm1_cache", "tags": {}, "values": {"memBytes": 2, "writeDropped": 3}},
                 "tsm1_engine:/d/1": {"name": "tsm1_engine", "tags": {}, "values": {"cacheCompactions": 4,
                   "cacheCompactionsActive": 1, "tsmLevel1Compactions": 2, "tsmLevel1CompactionQueue": 3}},
                 "write": {"name": "write", "tags": null, "values": {"writeDrop": 7, "pointReq": 10}},
                 "system": {"currentTime": "2026-11-25T09:51:06Z", "uptime": 0},
                 "cmdline": ["influxd", "run"]}
                """;
        Map<String, String> values = InfluxDbVarsSource.parse(new ObjectMapper().readTree(vars));
        assertEquals("5", values.get("write_requests"));
        assertEquals("10", values.get("points_written_ok"));
        assertEquals("2", values.get("points_written_fail"));
        assertEquals("1", values.get("server_errors"));
        assertEquals("200", values.get("cache_bytes"));
        assertEquals("3", values.get("cache_write_dropped"));
        assertEquals("6", values.get("compactions"));
        assertEquals("1", values.get("compactions_active"));
        assertEquals("3", values.get("compaction_queue"));
        assertEquals("7", values.get("write_drop"));
    }

    @Test
    void pointsAreTheLinesOfLineProtocolThatAreNeitherBlankNorComments() {
        assertEquals(1, WriteCounter.points("cpu,host=server01,region=uswest value=1"));
        assertEquals(2, WriteCounter.points("# a comment\ncpu value=1\n\ncpu value=2\n"));
        assertEquals(0, WriteCounter.points(null));
    }
}
