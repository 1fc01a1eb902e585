package org.dsload.kairosdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.dsload.core.ConfigException;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

/** The JSON the samplers send, read back as KairosDB reads it. */
class BatchAndQueryTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static WriteSettings.Fields fields(String timestamps, String points) {
        return new WriteSettings.Fields("kairosdb", "generated", "m.#{m}", "host=res-#{thread}, dc=dc1", "25", "100",
                points, timestamps, "15", "counter", "0", "measured", "0", "", "");
    }

    @Test
    void batchesTakeTheResourcesMetricsInTurnWithTheirTags() throws Exception {
        JMeterRuntime.init();
        BatchSpec spec = WriteSettings.compile(fields("now", "1"), "w").spec();
        WriteBatch batch = new WriteBatch(spec, 7, "master");
        assertEquals(100, batch.series().size());
        WriteBatch.Built first = batch.next(1_000_000);
        WriteBatch.Built second = batch.next(1_000_000);
        JsonNode a = MAPPER.readTree(first.json());
        JsonNode b = MAPPER.readTree(second.json());
        assertEquals(25, a.size());
        assertEquals(25, first.points());
        assertEquals("m.0", a.get(0).path("name").asText());
        assertEquals("m.25", b.get(0).path("name").asText());
        assertEquals("res-7", a.get(0).path("tags").path("host").asText());
        assertEquals("dc1", a.get(0).path("tags").path("dc").asText());
        // two batches in one millisecond get distinct time stamps
        assertEquals(1_000_000, a.get(0).path("datapoints").get(0).get(0).asLong());
        assertEquals(1_000_001, b.get(0).path("datapoints").get(0).get(0).asLong());
        assertEquals(25, b.get(0).path("datapoints").get(0).get(1).asLong(), "counter values continue");
    }

    @Test
    void aSimulatedClockWritesOneIntervalApartEndingBeforeNow() throws Exception {
        BatchSpec spec = WriteSettings.compile(fields("simulated", "4"), "w").spec();
        WriteBatch.Built built = new WriteBatch(spec, 1, "master").next(1_000_000);
        JsonNode points = MAPPER.readTree(built.json()).get(0).path("datapoints");
        assertEquals(4, points.size());
        assertEquals(100, built.points());
        assertEquals(15_000, points.get(1).get(0).asLong() - points.get(0).get(0).asLong());
        assertEquals(1_000_000 - 4 * 15_000, built.firstPoint());
        assertEquals(1_000_000 - 15_000, built.lastPoint());
    }

    @Test
    void queriesCarryRangeTagsGroupByAndAggregator() throws Exception {
        QuerySettings.Compiled c = QuerySettings.compile(new QuerySettings.Raw("kairosdb", "m.#{m}, other", "3",
                "15 minutes", "1700000000000", "host=a|b, dc=x", "host", "avg", "1 minutes", "100", "", "false", "0", "", ""), "q");
        JsonNode q = MAPPER.readTree(new String(c.json(), StandardCharsets.UTF_8));
        assertEquals(4, c.metrics());
        assertEquals(15, q.path("start_relative").path("value").asInt());
        assertEquals("minutes", q.path("start_relative").path("unit").asText());
        assertEquals(1_700_000_000_000L, q.path("end_absolute").asLong());
        JsonNode m = q.path("metrics");
        assertEquals(List.of("m.0", "m.1", "m.2", "other"), List.of(m.get(0).path("name").asText(),
                m.get(1).path("name").asText(), m.get(2).path("name").asText(), m.get(3).path("name").asText()));
        assertEquals("[\"a\",\"b\"]", m.get(0).path("tags").path("host").toString());
        assertEquals("host", m.get(0).path("group_by").get(0).path("tags").get(0).asText());
        assertEquals("avg", m.get(0).path("aggregators").get(0).path("name").asText());
        assertEquals(100, m.get(0).path("limit").asInt());
    }

    @Test
    void aPlanSavedBeforeInFlightExistedKeepsOneRequestAtATime() {
        // JMeter 5.6.3 hands a property missing from an older plan over as empty text
        assertEquals(1, WriteSettings.compile(fields("now", "1"), "w").inFlight());
        assertEquals(1, QuerySettings.compile(new QuerySettings.Raw("kairosdb", "m", "1", "15 minutes", "", "", "",
                "avg", "1 minutes", "", "", "false", "0", "", ""), "q").inFlight());
        ConfigException zero = assertThrows(ConfigException.class, () -> WriteSettings.compile(
                new WriteSettings.Fields("kairosdb", "generated", "m.#{m}", "h=a", "25", "100", "1", "now", "15",
                        "random", "0", "measured", "0", "0", ""), "w"));
        assertTrue(zero.getMessage().contains("'In flight'"), zero.getMessage());
    }

    @Test
    void malformedFieldsAreRefusedNamingTheField() {
        ConfigException e = assertThrows(ConfigException.class, () -> QuerySettings.compile(new QuerySettings.Raw(
                "kairosdb", "m", "1", "15 fortnights", "", "", "", "avg", "1 minutes", "", "", "false", "0", "4", ""), "q"));
        assertTrue(e.getMessage().contains("fortnights"), e.getMessage());
        ConfigException noM = assertThrows(ConfigException.class, () -> WriteSettings.compile(
                new WriteSettings.Fields("kairosdb", "generated", "same.name", "h=a", "25", "100", "1", "now", "15",
                        "random", "0", "measured", "0", "1", ""), "w"));
        assertTrue(noM.getMessage().contains("#{m}"), noM.getMessage());
    }
}
