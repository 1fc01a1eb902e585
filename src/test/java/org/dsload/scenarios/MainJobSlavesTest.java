package org.dsload.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** How many jmeter-server slaves each scenario of the main job runs on, and how the table says so. */
class MainJobSlavesTest {
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    private static Scenario named(String name) {
        return MainJob.selected(List.of(name)).get(0);
    }

    @Test
    void withoutANumberForAllEachScenarioRunsOnItsOwnAndInfluxOnOne() {
        MainJob own = new MainJob(NOWHERE, Path.of("results"), null);
        for (Scenario s : MainJob.SCENARIOS) {
            assertEquals(s.name().equals("influx") ? 1 : MainJob.DEFAULT_SLAVES, own.slavesFor(s), s.name());
        }
    }

    @Test
    void aNumberTheUserGaveHoldsForEveryScenarioInfluxToo() {
        MainJob three = new MainJob(NOWHERE, Path.of("results"), 3);
        assertEquals(3, three.slavesFor(named("influx")));
        assertEquals(3, three.slavesFor(named("ekv")));
        MainJob none = new MainJob(NOWHERE, Path.of("results"), 0);
        assertEquals(0, none.slavesFor(named("influx")));
    }

    @Test
    void theTablesHeadlineSaysTheNumberMostRanOnAndNamesTheOthers() {
        Map<String, Integer> alike = new LinkedHashMap<>(Map.of("ekv", 2));
        alike.put("cassandra", 2);
        assertEquals(", each on 2 local jmeter-server slaves", MainJob.slavesOfAll(alike));
        assertEquals(", each on 1 local jmeter-server slave", MainJob.slavesOfAll(Map.of("influx", 1)));
        assertEquals(", each in the master alone", MainJob.slavesOfAll(Map.of("ekv", 0)));
        Map<String, Integer> mixed = new LinkedHashMap<>();
        mixed.put("ekv", 2);
        mixed.put("influx", 1);
        mixed.put("monkey", 2);
        assertEquals(", each on 2 local jmeter-server slaves, influx on 1 local jmeter-server slave",
                MainJob.slavesOfAll(mixed));
        mixed.put("cassandra", 0);
        assertEquals(", each on 2 local jmeter-server slaves, influx on 1 local jmeter-server slave, cassandra in the"
                + " master alone", MainJob.slavesOfAll(mixed));
        assertEquals("", MainJob.slavesOfAll(Map.of()));
    }
}
