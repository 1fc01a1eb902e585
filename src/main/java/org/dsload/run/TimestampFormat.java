package org.dsload.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * JMeter's {@code jmeter.save.saveservice.timestamp_format}, which the runner leaves unset. The
 * results file must hold epoch milliseconds (JMeter's default, which the summary reads); and
 * JMeter's dashboard formats its Start and End Time with the same property as a date pattern, so
 * even the value {@code ms} turns them into minutes and seconds ("2439"). Unset, both are right.
 */
final class TimestampFormat {
    static final String PROPERTY = "jmeter.save.saveservice.timestamp_format";
    static final String MILLIS = "ms";

    private TimestampFormat() {
    }

    /**
     * Where the run or the JMeter home sets the property: a value other than {@code ms} refuses
     * the run (the summary could not read the results); {@code ms} is said on the console.
     *
     * @return why the run cannot go on, or null
     */
    static String refusal(PlanRun run, PrintStream console) throws IOException {
        for (Map.Entry<String, String> setting : settings(run).entrySet()) {
            String value = setting.getValue().trim();
            if (!value.equalsIgnoreCase(MILLIS)) {
                return setting.getKey() + " sets " + PROPERTY + "=" + value + ": the results would hold dates the summary "
                        + "cannot read. Remove it (JMeter's default, epoch milliseconds, is what dsload needs).";
            }
            console.println("dsload: " + setting.getKey() + " sets " + PROPERTY + "=ms, which JMeter's dashboard takes "
                    + "for a date pattern: its Start and End Time will read as minutes and seconds. Remove the setting "
                    + "(ms is the default).");
        }
        return null;
    }

    /** Each place that sets the property, and the value it sets. */
    private static Map<String, String> settings(PlanRun run) throws IOException {
        Map<String, String> found = new LinkedHashMap<>();
        for (String file : new String[] {"jmeter.properties", "user.properties"}) {
            Path path = run.jmeterHome.resolve("bin").resolve(file);
            if (Files.isRegularFile(path)) {
                Properties p = new Properties();
                try (InputStream in = Files.newInputStream(path)) {
                    p.load(in);
                }
                if (p.getProperty(PROPERTY) != null) {
                    found.put(path.toString(), p.getProperty(PROPERTY));
                }
            }
        }
        if (run.properties.containsKey(PROPERTY)) {
            found.put("-J" + PROPERTY, run.properties.get(PROPERTY));
        }
        if (run.globalProperties.containsKey(PROPERTY)) {
            found.put("-G" + PROPERTY, run.globalProperties.get(PROPERTY));
        }
        return found;
    }
}
