package org.dsload.core.format;

/**
 * The JMeter properties by which the dsload runner and the engines it starts speak to each other,
 * and by which a user steers a run ({@code -J<name>=...}): the one place that names them. The
 * runner sets them in JMeter's property files; elements read them on each engine.
 */
public final class RunProperties {
    /** The run's folder, where each engine leaves what the summary reads (a local slave: its own folder). */
    public static final String RUN_DIR = "dsload.run_dir";
    /** Names the run on every engine, for the folder of an engine without a run folder. */
    public static final String RUN_ID = "dsload.run_id";
    /**
     * Set at test start to the engine's name, so that plans run by several engines at once can
     * keep their keys or paths apart: {@code ${__P(dsload.engine,master)}}.
     */
    public static final String ENGINE = "dsload.engine";
    /** The engine that applies a Fault Schedule's faults in a distributed run: a slave's host:port. */
    public static final String FAULTS_ENGINE = "dsload.faults.engine";
    /** What each engine records: {@code rows} or {@code histograms}. */
    public static final String RECORD = "dsload.record";
    /** Seconds without a successful sample after which an engine stops the test (0: never). */
    public static final String GIVE_UP_AFTER = "dsload.give_up_after";
    /**
     * Limits each engine judges once a second on its own live figures, ending the test when one
     * is broken: {@code p99>50ms for 10s;errors>5%} ({@link StopConditions}).
     */
    public static final String STOP_WHEN = "dsload.stop_when";
    /** Says the store will fail during the run, so that its outages are notes rather than a verdict. */
    public static final String EXPECT_FAULTS = "dsload.expect_faults";
    /** Seconds between the generator's figures on the console (0: none). */
    public static final String METRICS_CONSOLE = "dsload.metrics.console";
    /**
     * How long (ms) a slave with a run folder waits, once its elements have started, for the
     * runner's start instant ({@link RunFiles#START_AT}) before it starts its threads without one;
     * unset or 0: it does not wait.
     */
    public static final String START_WAIT = "dsload.start_wait";
    /** The port of the RMI registry a slave without a run folder serves its recordings on. */
    public static final String RECORDING_PORT = "dsload.recording.port";

    /**
     * The port of the master's Prometheus endpoint ({@code /metrics}: requests, errors, latency
     * histograms, arrivals of every engine while the run lasts); unset or 0: none.
     */
    public static final String METRICS_PORT = "dsload.metrics_port";
    /** Seconds the endpoint stays after the test ends, for a last scrape (default 5). */
    public static final String METRICS_LINGER = "dsload.metrics_linger";
    /**
     * The master's live line of the run's figures: {@code tty} (one line rewritten every second),
     * {@code plain} (a line every 10 s) or {@code off}.
     */
    public static final String PROGRESS = "dsload.progress";

    /** The name of the engine of a local run, and of the master of a distributed one. */
    public static final String MASTER = "master";

    private RunProperties() {
    }

    /**
     * The engine name of a jmeter-server the master reached at {@code address} (host:port), or
     * {@link #MASTER} for none: the name of its folders ({@code generator/}, {@code histograms/})
     * and of its aggregate rows.
     */
    public static String engine(String address) {
        if (address == null || address.isBlank()) {
            return MASTER;
        }
        return "slave-" + address.trim().replaceAll("[^A-Za-z0-9.-]", "_");
    }
}
