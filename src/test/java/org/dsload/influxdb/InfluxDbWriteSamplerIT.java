package org.dsload.influxdb;

import static org.dsload.influxdb.InfluxDbFixture.TWO_BODIES;
import static org.dsload.influxdb.InfluxDbFixture.connection;
import static org.dsload.influxdb.InfluxDbFixture.url;
import static org.dsload.influxdb.InfluxDbFixture.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.process.Ports;
import org.dsload.testing.SamplerThread;
import org.dsload.testing.TimerDelays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * dsload InfluxDB Write against a real InfluxDB 1.x ({@code influxd} of Debian's {@code influxdb}
 * package): skipped with the reason without it, unless {@value EmbeddedInfluxDb#REQUIRED_ENV} is true.
 */
@Timeout(180)
class InfluxDbWriteSamplerIT {
    private static final String TIMEOUT = "Non HTTP response code: java.net.SocketTimeoutException";

    @BeforeAll
    static void influxdIsInstalled() {
        InfluxDbFixture.requireInfluxd();
    }

    private static EmbeddedInfluxDb withDatabase() {
        EmbeddedInfluxDb influx = EmbeddedInfluxDb.start();
        influx.query(null, "CREATE DATABASE test");
        return influx;
    }

    @Test
    void everyWriteCountsOnceWithItsOwnTimingAsInfluxDbCountsThem() {
        try (EmbeddedInfluxDb influx = withDatabase()) {
            long requestsBefore = influx.httpd("writeReq");
            long pointsBefore = influx.httpd("pointsWrittenOK");
            SamplerThread run = new SamplerThread(connection(url(influx)));
            try (run) {
                run.drain(write(TWO_BODIES, 8), SamplerThread.arrivals(2000));
            }
            List<Completion> requests = run.requests();
            assertEquals(2000, requests.size());
            assertEquals(2000, run.rows.stream().mapToInt(SampleResult::getSampleCount).sum());
            assertTrue(requests.stream().allMatch(r -> r.outcome().code().equals("204")), requests.get(0).outcome().code());
            assertEquals(2000, influx.httpd("writeReq") - requestsBefore, "InfluxDB counted exactly the writes reported");
            assertEquals(1000 * 1 + 1000 * 2, influx.httpd("pointsWrittenOK") - pointsBefore,
                    "and the points of both bodies, in turn");
            assertTrue(requests.stream().allMatch(r -> r.elapsedMicros() > 0));
            long firstBody = "cpu,host=server01,region=uswest value=1".length();
            assertTrue(requests.stream().anyMatch(r -> r.outcome().sentBytes() == firstBody),
                    "bytes out are the body, as vegeta counts them");
            assertTrue(requests.stream().allMatch(r -> r.outcome().receivedBytes() == 0), "a 204 has no body");
            assertTrue(run.atThreadEnd.isEmpty(), "nothing was outstanding at the end");
        }
    }

    @Test
    void wireBytesCountHeadsAndBodies() {
        try (EmbeddedInfluxDb influx = withDatabase()) {
            SamplerThread run = new SamplerThread(connection(url(influx)));
            InfluxDbWriteSampler w = write("cpu value=1", 2);
            w.setBytesCounted("wire");
            try (run) {
                run.drain(w, SamplerThread.arrivals(10));
            }
            Completion one = run.requests().get(0);
            String requestLine = "POST /write?db=test HTTP/1.1\r\n";
            assertTrue(one.outcome().sentBytes() > requestLine.length() + "cpu value=1".length() + 40,
                    "request line, headers (Host, Content-Length, Content-Type ...) and body: " + one.outcome().sentBytes());
            assertTrue(one.outcome().receivedBytes() > "HTTP/1.1 204 No Content\r\n\r\n".length() + 20,
                    "status line and InfluxDB's headers: " + one.outcome().receivedBytes());
        }
    }

    @Test
    void aPauseShowsInTheRequestsOutstandingDuringItAndInNoOthers() throws Exception {
        try (EmbeddedInfluxDb influx = withDatabase(); SamplerThread run = new SamplerThread(connection(url(influx)))) {
            InfluxDbWriteSampler w = write(TWO_BODIES, 6);
            long[] pause = new long[2];
            Thread freezer = new Thread(() -> {
                try {
                    run.awaitSamples(20, Duration.ofSeconds(30));
                    pause[0] = System.nanoTime();
                    influx.pause();
                    Thread.sleep(600);
                    influx.resume();
                    pause[1] = System.nanoTime();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            freezer.start();
            run.loopUntil(w, () -> !freezer.isAlive() && pause[1] != 0 && run.sentAfter(pause[1] + 50_000_000L) > 60,
                    Duration.ofSeconds(60));
            freezer.join();
            run.endThread();
            List<Completion> answered = run.requests().stream()
                    .filter(r -> !r.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
            List<Completion> stalled = answered.stream().filter(r -> r.elapsedMicros() >= 400_000).toList();
            assertFalse(stalled.isEmpty(), "the requests in flight while influxd was stopped show it");
            assertTrue(stalled.size() <= 6, "no more than the 6 in flight: " + stalled.size());
            assertTrue(stalled.stream().allMatch(r -> r.sendNanos() < pause[1] && r.endNanos() > pause[0] + 400_000_000L),
                    "each of them was outstanding during the pause");
            List<Completion> after = answered.stream().filter(r -> r.sendNanos() > pause[1] + 50_000_000L).toList();
            assertTrue(after.size() > 50, "writes went on after the pause: " + after.size());
            assertTrue(after.stream().noneMatch(r -> r.elapsedMicros() >= 400_000), "writes sent after it do not carry it");
        }
    }

    @Test
    void aServerThatStopsAnsweringFailsEachRequestAtItsOwnTimeoutAsStatusZero() {
        try (EmbeddedInfluxDb influx = withDatabase()) {
            InfluxDbConnection c = connection(url(influx));
            c.setResponseTimeout("300");
            SamplerThread run = new SamplerThread(c);
            try (run) {
                InfluxDbWriteSampler w = write(TWO_BODIES, 4);
                run.loop(w, Duration.ofMillis(200));
                influx.pause();
                try {
                    while (run.count(TIMEOUT) < 12) {
                        run.sample(w);
                    }
                } finally {
                    influx.resume();
                }
                while (!run.sample(w).isSuccessful()) {
                    // the failures of writes sent while influxd was stopped come first
                }
            }
            List<Completion> timedOut = run.requests().stream().filter(r -> r.outcome().code().equals(TIMEOUT)).toList();
            assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() >= 300_000), "each at its own 300 ms, not before");
            assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() < 1_300_000), "nor much later");
            assertTrue(timedOut.get(0).outcome().message().startsWith("no response from " + url(influx)
                    + "/ within the response timeout of 300 ms"), timedOut.get(0).outcome().message());
            RequestsResult failed = run.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
            assertEquals(failed.getSampleCount(), failed.getErrorCount());
        }
    }

    @Test
    void writesOutstandingWhenTheTestIsStoppedAreCancelledAndReported() {
        try (EmbeddedInfluxDb influx = withDatabase()) {
            SamplerThread run = new SamplerThread(connection(url(influx)));
            try (run) {
                InfluxDbWriteSampler w = write(TWO_BODIES, 8);
                run.loop(w, Duration.ofMillis(200));
                influx.pause();
                try {
                    run.sample(w); // sends into the stopped server until all 8 are outstanding, then waits
                    long start = System.nanoTime();
                    run.stopTest();
                    assertTrue(System.nanoTime() - start < 2_000_000_000L, "a stopped test does not wait for answers");
                } finally {
                    influx.resume();
                }
            }
            long cancelled = run.count(InFlightWindow.CANCELLED);
            assertTrue(cancelled >= 1 && cancelled <= 8, "the outstanding writes are cancelled: " + cancelled);
            RequestsResult row = run.atThreadEnd.stream()
                    .filter(r -> r.getResponseCode().equals(InFlightWindow.CANCELLED)).findFirst().orElseThrow();
            assertEquals(row.getSampleCount(), row.getErrorCount());
            assertEquals("/write", row.getURL().getPath(), "rows at the thread's end name the endpoint too (the gauges count them)");
        }
    }

    @Test
    void aRefusedConnectionIsRetriedAfterABackOffAndEveryAttemptCounts() {
        InfluxDbConnection c = connection("http://127.0.0.1:" + Ports.free());
        c.setCheckOnStart("false");
        SamplerThread run = new SamplerThread(c);
        try (run) {
            run.loop(write("cpu value=1", 5), Duration.ofSeconds(2));
        }
        List<Completion> attempts = run.requests().stream()
                .filter(r -> !r.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
        assertTrue(attempts.stream().allMatch(r -> r.outcome().code().equals("Non HTTP response code: java.net.ConnectException")),
                attempts.get(0).outcome().code());
        assertTrue(attempts.get(0).outcome().message().startsWith("cannot connect to http://127.0.0.1:"),
                attempts.get(0).outcome().message());
        assertTrue(attempts.size() >= 5 && attempts.size() <= 200, "attempts in 2 s: " + attempts.size());
        assertTrue(run.rows.stream().allMatch(r -> r.getBytesAsLong() == 0 && r.getSentBytes() == 0),
                "a refused connection neither sent nor received a byte: " + run.rows.stream()
                        .map(r -> r.getSentBytes() + "/" + r.getBytesAsLong()).toList());
    }

    @Test
    void anUnknownDatabaseStopsTheTestWithInfluxDbsSentence() {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start()) {
            InfluxDbConnection c = connection(url(influx));
            c.setDatabase("nodb");
            SamplerThread run = new SamplerThread(c);
            SampleResult r;
            try (run) {
                r = run.sample(write("cpu value=1", 1));
            }
            assertEquals("404", r.getResponseCode());
            assertTrue(r.isStopTest(), "no retry cures a missing database");
            assertTrue(r.getResponseMessage().contains("database not found: \"nodb\""), r.getResponseMessage());
        }
    }

    @Test
    void aRefusedLoginStopsTheTestAndThePasswordIsNeverShown() {
        try (EmbeddedInfluxDb influx = EmbeddedInfluxDb.start(Map.of(), Map.of("auth-enabled", "true"))) {
            influx.query(null, "CREATE USER admin WITH PASSWORD 's3cret-pw' WITH ALL PRIVILEGES");
            InfluxDbConnection good = connection(url(influx));
            good.setUser("admin");
            good.setPassword("s3cret-pw");
            good.setCheckOnStart("false");
            SamplerThread ok = new SamplerThread(good);
            try (ok) {
                ok.sample(write("cpu value=1", 1)); // 404: the database is made below
            }
            InfluxDbConnection wrong = connection(url(influx));
            wrong.setUser("admin");
            wrong.setPassword("not-it");
            wrong.setCheckOnStart("false");
            SamplerThread refused = new SamplerThread(wrong);
            SampleResult r;
            try (refused) {
                r = refused.sample(write("cpu value=1", 3));
            }
            assertEquals("401", r.getResponseCode());
            assertTrue(r.isStopTest());
            assertTrue(r.getResponseMessage().contains("authorization failed"), r.getResponseMessage());
            assertFalse(r.getResponseMessage().contains("not-it") || r.getSamplerData().contains("not-it"));
            assertEquals("404", ok.rows.get(0).getResponseCode(), "the right login gets as far as the database");
        }
    }

    @Test
    @org.junit.jupiter.api.Tag("alone") // compares start delays with a timer's on this machine: no other test JVM beside it
    void underAnArrivalScheduleEachWriteIsSentAtItsIntendedStartNeverBefore() {
        try (EmbeddedInfluxDb influx = withDatabase()) {
            TimerDelays.assertSentOnTimeSoonerThanATimer(new SamplerThread(connection(url(influx))),
                    write(TWO_BODIES, 4), 500, 4);
        }
    }
}
