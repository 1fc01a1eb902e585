package org.dsload.live;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The master's Prometheus endpoint: {@code http://<host>:<port>/metrics} on every address of the
 * machine, served by the Prometheus client's HTTP server (the JDK's), from the test's start until
 * it has lingered a few seconds after the test's end, so that a scraper gets the final counts.
 */
public final class LiveEndpoint {
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";
    private final HTTPServer server;
    private final int port;
    private volatile long closeAtNanos = Long.MAX_VALUE;
    private Thread hook;
    private boolean closed;

    private LiveEndpoint(HTTPServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Serves the registry on the port; a port in use is an IOException that says so. */
    public static LiveEndpoint start(int port, PrometheusRegistry registry) throws IOException {
        noDelay();
        try {
            HTTPServer server = HTTPServer.builder().port(port).registry(registry).buildAndStart();
            return new LiveEndpoint(server, server.getPort());
        } catch (IOException e) {
            throw new IOException("cannot serve metrics on port " + port + " (" + e.getMessage()
                    + "): is it in use? Choose another with --metrics-port or " + org.dsload.core.format.RunProperties.METRICS_PORT, e);
        }
    }

    /**
     * Has the JDK's HTTP server send each reply's segments without waiting for the scraper's
     * acknowledgement of the one before (TCP_NODELAY), unless the JVM was told otherwise: it writes a
     * reply's headers and its gzip chunks apart, and fetches that follow one another on a kept-alive
     * connection (the warm-up's) each waited some 40 ms for a delayed ACK. Read once per JVM, when its
     * first HTTP server starts.
     */
    static void noDelay() {
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
    }

    /** The address a scraper uses, with this machine's name. */
    public String address() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return "http://" + host + ":" + port + "/metrics";
    }

    public int port() {
        return port;
    }

    /**
     * Closes the endpoint {@code linger} from now: a daemon thread closes it then, and a JVM that
     * exits before (a headless JMeter at the test's end) waits for it in a shutdown hook.
     */
    public synchronized void closeAfter(Duration linger) {
        closeAtNanos = System.nanoTime() + linger.toNanos();
        Thread closer = new Thread(this::closeWhenDue, "dsload-metrics-linger");
        closer.setDaemon(true);
        closer.start();
        hook = new Thread(this::closeWhenDue, "dsload-metrics-linger-exit");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void closeWhenDue() {
        long left;
        while ((left = closeAtNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        }
        close();
    }

    /** Closes it now (a new test starts while it lingers). */
    public synchronized void close() {
        closeAtNanos = 0;
        if (!closed) {
            closed = true;
            server.close();
        }
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs and finds it closed
            }
        }
        hook = null;
    }
}
