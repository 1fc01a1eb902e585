package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.describe;
import static org.dsload.kairosdb.KairosDbFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.kairosdb.report.CapacityRecord.Check;
import org.dsload.process.ProcFs;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTTP client's pool as KairosDB sees it, and samples while KairosDB hangs or is down. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SharedKairosDb.class)
class KairosDbFailureIT {
    private static final int THREADS = 8;
    private static EmbeddedKairosDb kairos;

    @BeforeAll
    static void shared() {
        kairos = SharedKairosDb.server();
    }

    /** A forwarding port of its own to the shared server, on which faults can be applied (route "kairosdb"). */
    private static FaultProxy forwardToKairosDb() throws IOException {
        return FaultProxy.start(List.of(new FaultProxy.RouteSpec("kairosdb", new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", kairos.port()))), new InetSocketAddress("127.0.0.1", 0));
    }

    /**
     * Runs THREADS writer threads for a while through a connection with a pool of {@code maxConnections};
     * returns the most connections KairosDB was sent at once. The pool reaches KairosDB through a
     * forwarding port of its own, one connection for each of the pool's: connections other clients of
     * this JVM keep to the shared server (a class before may have left one) are not counted.
     */
    private static Busiest busiestServerView(String maxConnections) throws Exception {
        try (FaultProxy forward = forwardToKairosDb()) {
            String address = forward.listenAddress("kairosdb");
            KairosDbConnection connection = connection("http://" + address);
            connection.setMaxConnections(maxConnections);
            connection.setCrossCheck("false");
            connection.setRecordGauges("false");
            return busiest(connection, address, forward);
        }
    }

    /**
     * The most ESTABLISHED connections of this JVM to {@code address} at once, and what the forwarding
     * port counted at that moment (for the message of a failing assertion).
     */
    private record Busiest(int connections, String forwardState) {
        @Override
        public String toString() {
            return connections + " (the forwarding port's state then: " + forwardState + ")";
        }
    }

    /** The busiest moment of this JVM's connections to {@code address} while the writers ran. */
    private static Busiest busiest(KairosDbConnection connection, String address, FaultProxy forward) throws Exception {
        JMeterVariables variables = JMeterRuntime.freshVariables();
        connection.testStarted();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger failures = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    JMeterRuntime.adopt(variables, thread);
                    KairosDbWriteSampler write = writer("it.pool", 50, 50, 20);
                    for (int i = 0; i < 200 && !stop.get(); i++) {
                        if (!write.sample(null).isSuccessful()) {
                            failures.incrementAndGet();
                        }
                    }
                }));
            }
            Busiest most = new Busiest(0, "");
            long deadline = System.nanoTime() + 4_000_000_000L;
            while (System.nanoTime() < deadline) {
                int now = ProcFs.establishedTo(ProcessHandle.current().pid(), address);
                if (now > most.connections()) {
                    most = new Busiest(now, forward.command("STATE"));
                }
                Thread.sleep(5);
            }
            stop.set(true);
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
            assertEquals(0, failures.get(), "failed writes");
            return most;
        } finally {
            stop.set(true);
            pool.shutdownNow();
            connection.testEnded();
        }
    }

    @Test
    @Order(1)
    void thePoolSizeBoundsTheConnectionsKairosDbSees() throws Exception {
        Busiest withTwo = busiestServerView("2");
        assertTrue(withTwo.connections() >= 1 && withTwo.connections() <= 2,
                "connections seen by KairosDB with a pool of 2: " + withTwo);

        Busiest withMany = busiestServerView("200");
        assertTrue(withMany.connections() > 2 && withMany.connections() <= THREADS,
                "connections seen by KairosDB with a pool of 200 and " + THREADS + " threads: " + withMany);
    }

    @Test
    @Order(2)
    void aHungServerFailsSamplesWithinTheResponseTimeout() {
        JMeterRuntime.freshVariables();
        KairosDbConnection connection = connection(kairos.url());
        connection.setResponseTimeout("1000");
        connection.setCrossCheck("false");
        connection.testStarted();
        kairos.pause();
        try {
            KairosDbWriteSampler write = writer("it.hung", 25, 25, 1);
            for (int i = 0; i < 2; i++) {
                long started = System.nanoTime();
                SampleResult r = write.sample(null);
                long millis = (System.nanoTime() - started) / 1_000_000;
                assertFalse(r.isSuccessful());
                assertEquals("SocketTimeoutException", r.getResponseCode(), describe(r));
                assertTrue(r.getResponseMessage().contains("within the response timeout of 1000 ms"), describe(r));
                // 1002-1005 ms measured; 2 s more for a busy machine
                assertTrue(millis >= 900 && millis < 3_000, "failed after " + millis + " ms");
            }
        } finally {
            kairos.resume();
            connection.testEnded();
        }
    }

    /**
     * A count back slower than the load's response timeout is still counted: the timeout is the
     * writes', and KairosDB answers a query more slowly than a write right after a load or a freeze.
     * Every answer is held back 1.5 s, against a response timeout of 1 s.
     */
    @Test
    @Order(3)
    void aCountSlowerThanTheResponseTimeoutIsCountedBack() throws Exception {
        try (FaultProxy forward = forwardToKairosDb()) {
            JMeterRuntime.freshVariables();
            KairosDbConnection connection = connection("http://" + forward.listenAddress("kairosdb"));
            connection.setResponseTimeout("1000");
            connection.setRecordGauges("false");
            connection.testStarted();
            try {
                KairosDbWriteSampler write = writer("it.slowcount", 5, 5, 2);
                for (int i = 0; i < 4; i++) {
                    SampleResult r = write.sample(null);
                    assertTrue(r.isSuccessful(), describe(r));
                }
                String applied = forward.command("APPLY kairosdb delay delay=1500ms direction=down");
                assertTrue(applied.startsWith("OK"), applied);
            } finally {
                connection.testEnded(); // the count back, through the delay
            }
            CrossCheck.Result counted = connection.lastCrossCheck();
            assertEquals(Check.MATCH, counted.check(), counted.toString());
            assertEquals(40, counted.reported(), counted.toString());
            assertTrue(counted.waitedMillis() >= 1500, "the answer was held back: " + counted);
        }
    }

    @Test
    @Order(4)
    void aStoppedServerFailsSamplesAtOnceAndTheCheckAtStartSaysSo() {
        JMeterRuntime.freshVariables();
        KairosDbConnection connection = connection(kairos.url());
        connection.setCrossCheck("false");
        connection.testStarted();
        kairos.stop();
        try {
            KairosDbWriteSampler write = writer("it.stopped", 25, 25, 1);
            KairosDbQuerySampler query = KairosDbFixture.query("it.stopped.#{m}", 5);
            for (SampleResult r : List.of(write.sample(null), write.sample(null), query.sample(null))) {
                assertFalse(r.isSuccessful());
                assertTrue(r.getResponseMessage().contains(kairos.url()), describe(r));
                assertTrue(r.getResponseMessage().contains("Is KairosDB running there?")
                        || r.getResponseMessage().contains("closed the connection"), describe(r));
                // 1-2 ms measured: a refused connection fails at once
                assertTrue(r.getTime() < 3_000, "failed after " + r.getTime() + " ms");
                assertEquals(0, r.getBytesAsLong(), "nothing came over the wire: " + describe(r));
                assertEquals(0, r.getSentBytes(), "nothing went over it: " + describe(r));
            }
        } finally {
            connection.testEnded();
        }
        JMeterRuntime.freshVariables();
        KairosDbConnection late = connection(kairos.url());
        late.testStarted();
        try {
            SampleResult refused = writer("it.stopped", 25, 25, 1).sample(null);
            assertFalse(refused.isSuccessful());
            assertEquals("CONFIG", refused.getResponseCode());
            assertTrue(refused.getResponseMessage().contains("cannot reach KairosDB"), describe(refused));
            assertTrue(refused.isStopTest());
        } finally {
            late.testEnded();
            kairos.restart(); // the server is shared by the other test classes
        }
    }
}
