package org.dsload.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import org.dsload.core.format.RunProperties;
import org.dsload.run.PlanRun;

import picocli.CommandLine.Option;

/**
 * How a run is watched while it runs: the master's Prometheus endpoint ({@code --metrics-port},
 * {@code --metrics-linger}) and the live line ({@code --progress}, {@code --quiet}), which takes the
 * place of JMeter's summariser lines on the console.
 */
final class LiveOptions {
    static final int DEFAULT_LINGER = 5;

    @Option(names = "--metrics-port", paramLabel = "<port>",
            description = "Serve the run's figures for Prometheus at http://<this host>:<port>/metrics while it runs:"
                    + " dsload_requests_total, dsload_errors_total, dsload_latency_seconds (histogram),"
                    + " dsload_arrivals_late_total, dsload_arrivals_dropped_total, per label and engine; the faults in"
                    + " force and the servers' own gauges (dsload_server_gauge, which slaves send as they read them)"
                    + " (default: none); the JMeter property " + RunProperties.METRICS_PORT + ". A port in use refuses the run"
                    + " (exit code " + ExitCodes.REFUSED_AT_START + ") before any load.")
    private Integer metricsPort;

    @Option(names = "--metrics-linger", paramLabel = "<seconds>",
            description = "Keep the metrics endpoint this many seconds after the test ends, for a last scrape (default "
                    + DEFAULT_LINGER + "); the JMeter property " + RunProperties.METRICS_LINGER + ".")
    private Integer metricsLinger;

    @Option(names = "--progress", paramLabel = "tty|plain",
            description = "The live line: tty rewrites one line every second, plain prints a line every 10 s"
                    + " (default: tty when the console is a terminal, else plain). It shows elapsed/planned time,"
                    + " requests, rate, p50 and p99 of the last interval over every engine, errors, late arrivals,"
                    + " engines running and their generator CPU; JMeter's summariser lines stay in jmeter.log.")
    private String progress;

    @Option(names = "--quiet", description = "No live line (JMeter's summariser lines stay in jmeter.log too).")
    private boolean quiet;

    /** What is wrong with the options, or null. */
    String problem() {
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            return "--metrics-port must be a port number from 1 to 65535 (0: none), got " + metricsPort;
        }
        if (metricsLinger != null && metricsLinger < 0) {
            return "--metrics-linger must be 0 or more seconds, got " + metricsLinger;
        }
        if (progress != null && !progress.equals("tty") && !progress.equals("plain")) {
            return "--progress must be tty or plain, got '" + progress + "'";
        }
        if (progress != null && quiet) {
            return "--progress and --quiet exclude each other";
        }
        return null;
    }

    void applyTo(PlanRun run) {
        properties().forEach(run::property);
    }

    /** The JMeter properties of the options (the progress one always: the summariser's lines then leave the console). */
    Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>();
        if (metricsPort != null) {
            properties.put(RunProperties.METRICS_PORT, Integer.toString(metricsPort));
        }
        if (metricsLinger != null) {
            properties.put(RunProperties.METRICS_LINGER, Integer.toString(metricsLinger));
        }
        properties.put(RunProperties.PROGRESS, quiet ? "off" : progress != null ? progress
                : System.console() != null ? "tty" : "plain");
        return properties;
    }
}
