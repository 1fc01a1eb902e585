package org.dsload.scenarios;

import java.util.Map;

/**
 * One scenario plan of the main job: which plan, the properties it runs with by default in the
 * main job, and how to start the embedded target it runs against.
 */
public interface Scenario {

    /** Short name, used to pick scenarios ({@code -Ddsload.scenarios=ekv,...}). */
    String name();

    /** File name under test-plans/. */
    String plan();

    /** -J properties for the main job's run (shorter than the plan's own defaults). */
    Map<String, String> mainJobProperties();

    /**
     * The same for a run on {@code engines} engines, each of which runs the whole plan: a scenario
     * whose figure is a total (a rate) divides it among them.
     */
    default Map<String, String> mainJobProperties(int engines) {
        return mainJobProperties();
    }

    /**
     * The jmeter-server slaves the main job starts for this scenario when the user chose no number
     * for all of them: each its share of the plan's threads or rate.
     */
    default int defaultSlaves() {
        return MainJob.DEFAULT_SLAVES;
    }

    /**
     * The share of the measured window's requests that must succeed for the main job's {@code ok}
     * ({@link ScenarioVerdict}): failures the scenario does not expect are a finding.
     */
    default double minSuccessRatio() {
        return 0.999;
    }

    /**
     * Starts the embedded target(s); closing the result stops them.
     *
     * @throws Unavailable when this machine has no such server: the main job skips the scenario
     */
    Target start() throws Exception;

    /** The scenario's server is not installed here; the message says what to install. */
    final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(message);
        }
    }

    /** Running target(s) and the -J properties that point the plan at them. */
    interface Target extends AutoCloseable {
        Map<String, String> properties();

        @Override
        void close();
    }
}
