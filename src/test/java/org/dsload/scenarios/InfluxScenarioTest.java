package org.dsload.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The main job's S2 run: 5,000 writes per second in all, whatever the number of engines. */
class InfluxScenarioTest {

    @Test
    void theEnginesShareTheRate() {
        InfluxScenario s2 = new InfluxScenario();
        assertEquals("5000", s2.mainJobProperties().get("rate"));
        assertEquals("5000", s2.mainJobProperties(1).get("rate"));
        assertEquals("2500", s2.mainJobProperties(2).get("rate"), "each of two slaves sends half");
        assertNull(s2.mainJobProperties(2).get("threads"), "the plan's few threads, its places following the rate");
        assertNull(s2.mainJobProperties(2).get("warmup"), "the plan's warm-up comes before the measured writes");
    }
}
