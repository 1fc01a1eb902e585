package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Locale;

import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

/**
 * What a closed-model run does when its server goes away: test-plans/ekv-profile-get.jmx with T
 * threads (and N in flight each) for the given seconds, the redis-server stopped 3 s in. Prints
 * the failed requests (each a connection attempt) per second of the outage and the size of the
 * results file. {@code -Dbench.props="down=10x1"}; {@code bench.seconds} (16).
 */
final class ServerDownRun {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private ServerDownRun() {
    }

    /** Settings from {@code bench.down}. */
    static void run() throws Exception {
        String down = System.getProperty("bench.down");
        String[] shape = down.split("x");
        int seconds = Integer.getInteger("bench.seconds", 16);
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                    .resultsRoot(Checkout.target().resolve("bench-results")).runId("redis-down-" + down)
                    .dashboard(false).timeout(Duration.ofSeconds(seconds + 180))
                    .property("hosts", redis.address()).property("threads", shape[0]).property("in_flight", shape[1])
                    .property("duration", Integer.toString(seconds)).property("profiles", "1000")
                    .property("value_sizes", "100").property("rampup", "0").property("nil_is_failure", "false");
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(8_000); // JMeter's start, the setUp load, then 3 s of load
                    redis.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            killer.start();
            PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
            killer.join();
            long failed = 0;
            long first = Long.MAX_VALUE;
            long last = 0;
            try (JtlReader reader = new JtlReader(outcome.jtl())) {
                JtlSample s;
                while ((s = reader.next()) != null) {
                    if (s.label().equals("GET profile") && !s.success()) {
                        failed += s.sampleCount();
                        first = Math.min(first, s.start());
                        last = Math.max(last, s.start());
                    }
                }
            }
            double outage = Math.max(1, last - first) / 1000.0;
            System.out.println();
            System.out.printf(Locale.ROOT, "%s threads x %s in flight, server stopped during the run: %d failed requests "
                    + "in %.1f s of outage (%.0f/s), results file %.1f MB%n", shape[0], shape[1], failed, outage,
                    failed / outage, Files.size(outcome.jtl()) / 1e6);
        }
    }
}
