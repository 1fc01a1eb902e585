package org.dsload.cli;

import java.util.ArrayList;
import java.util.List;

import org.dsload.core.format.RunProperties;
import org.dsload.core.format.StopConditions;
import org.dsload.run.PlanRun;

import picocli.CommandLine.Option;

/**
 * {@code --stop-when}: limits each engine judges once a second while the run goes on, ending it early
 * (exit code 3) when one is broken; the JMeter property {@value RunProperties#STOP_WHEN}, which a
 * {@code -J} may give too.
 */
final class StopWhenOption {
    @Option(names = "--stop-when", paramLabel = "<condition>",
            description = "End the run early when this condition holds, judged once a second on each engine's requests"
                    + " of that second: 'p99>50ms' (any percentile pN > a duration), 'errors>5%%' (share of failed"
                    + " requests), 'rate<100/s' (requests ended per second, from the first one on); add 'for 10s' to"
                    + " need that many seconds in a row (default " + StopConditions.DEFAULT_FOR_SECONDS + "). Repeat for"
                    + " several; the JMeter property " + RunProperties.STOP_WHEN + " ('p99>50ms for 10s;errors>5%%').")
    private List<String> conditions = new ArrayList<>();

    /** The conditions of the options and of a -J property of the same name, as the property's value; null for none. */
    private String text(PropertyOptions properties) {
        List<String> all = new ArrayList<>();
        String fromProperty = properties.value(RunProperties.STOP_WHEN);
        if (fromProperty != null && !fromProperty.isBlank()) {
            all.add(fromProperty);
        }
        all.addAll(conditions);
        return all.isEmpty() ? null : StopConditions.join(all);
    }

    /**
     * Parses every condition, before anything runs.
     *
     * @return the message of the first that does not parse, or null
     */
    String problem(PropertyOptions properties) {
        try {
            StopConditions.parse(text(properties));
            return null;
        } catch (IllegalArgumentException e) {
            return "--stop-when: " + e.getMessage();
        }
    }

    void applyTo(PlanRun run, PropertyOptions properties) {
        String text = text(properties);
        if (text != null) {
            run.property(RunProperties.STOP_WHEN, text);
        }
    }
}
