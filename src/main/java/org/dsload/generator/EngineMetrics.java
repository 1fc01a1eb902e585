package org.dsload.generator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.GeneratorMetrics;
import org.dsload.recording.Recording;
import org.dsload.report.RecordingFormat;
import org.dsload.run.PlanRunner;
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
 * engine the master reached at host:port. The same start and end bound the engine's recording in
 * histograms mode ({@link Recording}).
 */
public final class EngineMetrics {
    public static final String CONSOLE_PROPERTY = "dsload.metrics.console";
    /**
     * Set at test start to the engine's name, so that plans run by several engines at once can
     * keep their keys or paths apart: {@code ${__P(dsload.engine,master)}}.
     */
    public static final String ENGINE_PROPERTY = "dsload.engine";
    public static final String FOLDER = "generator";
    public static final String MASTER = "master";
    private static final Logger log = LoggerFactory.getLogger(EngineMetrics.class);

    private static final Set<Object> OWNERS = Collections.newSetFromMap(new IdentityHashMap<>());
    private static EngineReporter reporter;
    private static boolean forProcess;

    private EngineMetrics() {
    }

    /** The folder name of an engine: {@code master}, or {@code slave-<host>} for a remote engine. */
    static String engineName(String remoteHost) {
        if (remoteHost == null || remoteHost.isBlank()) {
            return MASTER;
        }
        return RecordingFormat.slaveEngine(remoteHost);
    }

    /**
     * Starts reporting unless it runs already.
     *
     * @param owner      the element starting it, which must {@link #release} it at test end
     * @param remoteHost the host:port the master reached this engine at, or null in a local run
     */
    public static synchronized void acquire(Object owner, String remoteHost) {
        if (JMeterUtils.getJMeterProperties() != null) {
            JMeterUtils.setProperty(ENGINE_PROPERTY, engineName(remoteHost));
        }
        OWNERS.add(owner);
        if (reporter == null) {
            start(engineName(remoteHost));
        }
        Recording.testStarted(remoteHost);
    }

    /** Called by each element at test end, when every sampler thread of the engine is done. */
    public static synchronized void release(Object owner) {
        Recording.testEnded();
        if (OWNERS.remove(owner) && OWNERS.isEmpty() && !forProcess) {
            stop();
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
                    PlanRunner.RUN_DIR_PROPERTY);
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
        String runDir = property(PlanRunner.RUN_DIR_PROPERTY, null);
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
        String value = property(CONSOLE_PROPERTY, "0").trim();
        try {
            return Math.max(0, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            log.warn("dsload: property {} must be a number of seconds, got '{}'; no console report", CONSOLE_PROPERTY,
                    value);
            return 0;
        }
    }
}
