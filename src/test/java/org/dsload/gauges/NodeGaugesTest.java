package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.dsload.core.format.GaugeTable;

import org.junit.jupiter.api.Test;

class NodeGaugesTest {

    private static GaugeTable.Row row(int engine, long millis, String state, String calls) {
        return new GaugeTable.Row(engine, millis, "n:1", state, calls == null ? Map.of() : Map.of("calls", calls), "");
    }

    @Test
    void aCountersIncreaseRunsFromTheEarliestToTheLatestReadingOfAnyEngine() {
        NodeGauges n = NodeGauges.of(List.of(row(0, 1000, "ok", "100"), row(1, 1100, "ok", "130"),
                row(0, 2000, "ok", "400"), row(1, 2100, "ok", "460"))).get("n:1");
        assertEquals(360, n.increase("calls").getAsDouble());
        assertEquals(4, n.answers());
    }

    @Test
    void ratesArePerEngineSoTwoReadingsAMomentApartMakeNoNoise() {
        NodeGauges n = NodeGauges.of(List.of(row(0, 1000, "ok", "100"), row(1, 1010, "ok", "200"),
                row(0, 2000, "ok", "400"), row(1, 2010, "ok", "450"))).get("n:1");
        Range rate = n.rate("calls");
        assertEquals(250, rate.min());
        assertEquals(300, rate.max());
    }

    @Test
    void aCounterThatWentDownMeansARestartAndNoIncrease() {
        NodeGauges n = NodeGauges.of(List.of(row(0, 1000, "ok", "500"), row(0, 2000, "ok", "20"),
                row(0, 3000, "ok", "600"))).get("n:1");
        assertTrue(n.increase("calls").isEmpty());
    }

    @Test
    void unreachableAndRefusedReadingsAreCountedApart() {
        NodeGauges n = NodeGauges.of(List.of(row(0, 1000, "ok", "1"), row(0, 2000, "unreachable", null),
                new GaugeTable.Row(0, 3000, "n:1", "refused", Map.of(), "NOPERM"))).get("n:1");
        assertEquals(1, n.answers());
        assertEquals(1, n.unreachable());
        assertEquals("NOPERM", n.refused());
    }

    @Test
    void rangesPrintAsTheSummaryShowsThem() {
        Range r = new Range();
        assertEquals("-", r.text());
        r.add(3);
        assertEquals("3", r.text());
        r.add(40);
        assertEquals("3-40", r.text());
        Range bytes = new Range();
        bytes.add(520_000);
        bytes.add(7_100_000);
        assertEquals("0.52-7.10", bytes.text(1e6));
    }
}
