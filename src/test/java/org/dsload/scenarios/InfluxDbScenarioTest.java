package org.dsload.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The main job's S2 run: 5,000 writes per second and 2 threads in all, whatever the number of engines. */
class InfluxDbScenarioTest {

    @Test
    void theEnginesShareTheRateAndThePlansThreads() {
        InfluxDbScenario s2 = new InfluxDbScenario();
        assertEquals("5000", s2.mainJobProperties().get("rate"));
        assertEquals("5000", s2.mainJobProperties(1).get("rate"));
        assertEquals("2500", s2.mainJobProperties(2).get("rate"), "each of two slaves sends half");
        assertEquals("2", s2.mainJobProperties(1).get("threads"), "the plan's 2 threads on one engine");
        assertEquals("1", s2.mainJobProperties(2).get("threads"), "and shared by two, as the rate is");
        assertEquals("40", s2.mainJobProperties(2).get("warmup"),
                "40 s of warm-up before the measured writes: the slaves' JVMs and influxd start cold together");
    }
}
