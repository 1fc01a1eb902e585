package org.dsload.scenarios;

import java.util.Map;

/** S1's writes: reporter threads of 25-metric batches, unpaced, KairosDB's own count checked at the end. */
final class KairosDbWriteScenario implements Scenario {

    @Override
    public String name() {
        return "kairosdb-write";
    }

    @Override
    public String plan() {
        return "kairosdb-write.jmx";
    }

    /** 10 resources per engine, a new one each second, 200 batches each as fast as KairosDB takes them. */
    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("threads", "10", "ramp_step", "1", "repeats", "200", "paced", "false", "duration", "60");
    }

    @Override
    public Target start() {
        return new KairosDbTarget();
    }
}
