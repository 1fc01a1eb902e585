package org.dsload.generator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.EngineService;
import org.dsload.core.GeneratorMetrics;
import org.dsload.core.format.RunProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the generator's own figures each second while a test runs in this JVM: CSV files in
 * {@code <run folder>/generator/<engine>/} (the run folder is the JMeter property
 * {@code dsload.run_dir}, which the dsload runner sets on every engine), and on the console
 * every {@code dsload.metrics.console} seconds when that property is above 0.
 *
 * <p>Reporting starts with the first dsload element that takes part in the test (connection
 * elements, arrival elements, dsload Generator Metrics) and stops with the last. The engine's
 * name keeps the files of a distributed run apart: {@code master} for a local run (and for the
 * master of a distributed run, see {@link #startForProcess}), {@code slave-<host_port>} for an
 * engine the master reached at host:port (core's {@code EngineServices} names the engine).
 */
public final class EngineMetrics implements EngineService {
    public static final String FOLDER = "generator";
    private static final Logger log = LoggerFactory.getLogger(EngineMetrics.class);

    private static EngineReporter reporter;
    private static boolean forProcess;

    /** The figures as core starts and ends them with the test ({@code META-INF/services/org.dsload.core.EngineService}). */
    public EngineMetrics() {
    }

    /** Starts reporting unless it runs already. */
    @Override
    public void started(String engine, String remoteHost) {
        synchronized (EngineMetrics.class) {
            if (reporter == null) {
                start(engine);
            }
        }
    }

    /** Stops reporting with the last element's test end, unless it reports for the whole process. */
    @Override
    public void ended(boolean last) {
        synchronized (EngineMetrics.class) {
            if (last && !forProcess) {
                stop();
            }
        }
    }

    /**
     * Reports from now until the JVM exits: for the master of a distributed run, which runs no
     * test elements of its own (the dsload runner starts it with a JMeter init script).
     */
    public static synchronized void startForProcess(String engine) {
        if (forProcess) {
            return;
        }
        forProcess = true;
        if (reporter == null) {
            start(engine);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(EngineMetrics::stopAtExit, "dsload-generator-metrics-stop"));
    }

    private static synchronized void stopAtExit() {
        stop();
    }

    private static void start(String engine) {
        File dir = folder(engine);
        int console = consoleSeconds();
        if (dir == null && console == 0) {
            log.info("dsload: generator metrics not recorded: no {} property (the dsload runner sets it)",
                    RunProperties.RUN_DIR);
            return;
        }
        // Counters count from the start of this test, also on a jmeter-server serving several.
        GeneratorMetrics.registry().getCounters().values().forEach(c -> c.dec(c.getCount()));
        reporter = new EngineReporter(GeneratorMetrics.registry(), engine, dir, console);
        reporter.start(0, 1, TimeUnit.SECONDS);
        log.info("dsload: generator metrics of engine {} each second{}{}", engine,
                dir == null ? "" : " into " + dir, console == 0 ? "" : ", on the console every " + console + " s");
    }

    private static void stop() {
        if (reporter != null) {
            reporter.report(); // the figures of the last partial second
            reporter.stop();
            reporter = null;
        }
    }

    private static File folder(String engine) {
        String runDir = property(RunProperties.RUN_DIR, null);
        if (runDir == null || runDir.isBlank()) {
            return null;
        }
        Path dir = Path.of(runDir.trim(), FOLDER, engine);
        try {
            Files.createDirectories(dir);
            return dir.toFile();
        } catch (Exception e) {
            log.warn("dsload: generator metrics not recorded: cannot create {}: {}", dir, e.toString());
            return null;
        }
    }

    /** A JMeter property; none when JMeter's properties are not loaded (elements driven by unit tests). */
    private static String property(String name, String fallback) {
        if (JMeterUtils.getJMeterProperties() == null) {
            return fallback;
        }
        return JMeterUtils.getPropDefault(name, fallback);
    }

    private static int consoleSeconds() {
        String value = property(RunProperties.METRICS_CONSOLE, "0").trim();
        try {
            return Math.max(0, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            log.warn("dsload: property {} must be a number of seconds, got '{}'; no console report", RunProperties.METRICS_CONSOLE,
                    value);
            return 0;
        }
    }
}
