package org.dsload.scenarios;

import java.util.Map;

/** S1's dashboards: 10-metric queries over the last 15 minutes at a target rate, on seeded history. */
final class KairosDbReadScenario implements Scenario {

    @Override
    public String name() {
        return "kairosdb-read";
    }

    @Override
    public String plan() {
        return "kairosdb-read.jmx";
    }

    /** 120 queries a minute per engine for 30 s over 5 resources' 30 minutes of history. */
    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("seed_resources", "5", "queries_per_min", "120", "duration", "30");
    }

    @Override
    public Target start() {
        return new KairosDbTarget();
    }
}
