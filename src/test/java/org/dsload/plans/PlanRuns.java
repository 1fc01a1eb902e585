package org.dsload.plans;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.Ending;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;

/** Runs shipped plans headless with the JMeter home the build made, as a user would. */
public final class PlanRuns {
    private PlanRuns() {
    }

    public record Result(PlanRunner.Outcome outcome, String console) {
    }

    public static Path plan(String name) {
        return Checkout.basedir().resolve("test-plans").resolve(name);
    }

    /** Runs a plan into target/test-results/, with the given -J properties and a time limit. */
    public static Result run(String planName, Map<String, String> properties, Duration limit)
            throws IOException, InterruptedException {
        return run(planName, properties, limit, true);
    }

    /** As {@link #run(String, Map, Duration)}, without JMeter's HTML dashboard when it is not looked at. */
    public static Result run(String planName, Map<String, String> properties, Duration limit, boolean dashboard)
            throws IOException, InterruptedException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        PlanRun run = new PlanRun(Checkout.jmeterHome(), plan(planName))
                .resultsRoot(Checkout.target().resolve("test-results"))
                .timeout(limit)
                .dashboard(dashboard)
                .jvmArgs(List.of("-Xms256m", "-Xmx512m"));
        properties.forEach(run::property);
        PlanRunner.Outcome outcome = new PlanRunner(out).run(run);
        return new Result(outcome, console.toString(StandardCharsets.UTF_8));
    }

    /**
     * The run went well, or only its schedule slipped: a machine too busy to keep a plan's rate ends
     * the run with exit code 6, saying how many arrivals it did not send. For tests whose subject is
     * not the schedule.
     */
    public static void assertRan(PlanRunner.Outcome outcome, String console) {
        boolean slipped = outcome.ending() == Ending.LOAD_INCOMPLETE && outcome.problem().lines().count() == 2
                && outcome.problem().startsWith("the load did not run as planned:\n  scheduled arrivals went unsent: ");
        org.junit.jupiter.api.Assertions.assertTrue(outcome.ok() || slipped, outcome.problem() + "\n" + console);
    }

    public static List<JtlSample> samples(Path jtl) throws IOException {
        try (JtlReader reader = new JtlReader(jtl)) {
            List<JtlSample> samples = new java.util.ArrayList<>();
            JtlSample s;
            while ((s = reader.next()) != null) {
                samples.add(s);
            }
            if (reader.malformedRows() > 0) {
                throw new IOException(jtl + " has " + reader.malformedRows() + " unreadable rows");
            }
            return samples;
        }
    }
}
