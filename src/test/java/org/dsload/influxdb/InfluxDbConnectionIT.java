package org.dsload.influxdb;

import static org.dsload.influxdb.InfluxDbFixture.connection;
import static org.dsload.influxdb.InfluxDbFixture.url;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.SharedClients;
import org.dsload.process.ProcFs;
import org.dsload.targets.EmbeddedInfluxDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * dsload InfluxDB Connection's start against a real InfluxDB 1.x: the connections it opens before
 * the first write, counted by the operating system (this JVM's established TCP connections to the
 * server's port: a machine-wide count also takes in the server side of other tests' connections
 * whose client port happens to be the same number) and by the server (its ping count), and no
 * write among them.
 */
@Timeout(120)
class InfluxDbConnectionIT {

    @BeforeAll
    static void influxdIsInstalled() {
        InfluxDbFixture.requireInfluxd();
    }

    @Test
    void theConnectionsOpenedAtStartAreOpenBeforeTheFirstWriteAndWriteNothing() throws IOException {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            assertEquals(5, opened(influx, "5", "100"), "one connection per ping sent at once");
        }
    }

    @Test
    void theConnectionsOpenedAtStartStayWithinMaxConnections() throws IOException {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            assertEquals(3, opened(influx, "10", "3"));
        }
    }

    @Test
    void noneAskedForLeavesTheCheckConnectionOnly() throws IOException {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            assertEquals(1, opened(influx, "0", "100"));
        }
    }

    /**
     * Starts a connection element with these fields and returns the connections it holds open to
     * the server then, after checking that the operating system and the server count as many.
     */
    private static int opened(EmbeddedInfluxDb influx, String atStart, String max) throws IOException {
        InfluxDbConnection element = connection(url(influx));
        element.setConnectionsAtStart(atStart);
        element.setMaxConnections(max);
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        long writesBefore = influx.httpd("writeReq");
        long pingsBefore = influx.httpd("pingReq");
        String server = influx.host() + ":" + influx.port();
        int establishedBefore = ProcFs.establishedTo(ProcessHandle.current().pid(), server);
        element.testStarted();
        try {
            InfluxDbClient client = SharedClients.lookup("influxdb", InfluxDbClient.class, "dsload InfluxDB Connection");
            int pooled = client.openConnections();
            assertEquals(pooled, ProcFs.establishedTo(ProcessHandle.current().pid(), server) - establishedBefore,
                    "the pool's connections are the ones the operating system has open to the server");
            long pings = influx.httpd("pingReq") - pingsBefore;
            assertTrue(pings >= pooled, "each opened by a ping: " + pings + " pings for " + pooled + " connections");
            assertEquals(0, influx.httpd("writeReq") - writesBefore, "and nothing written");
            return pooled;
        } finally {
            element.testEnded();
        }
    }
}
