package org.dsload.kairosdb;

import static org.dsload.kairosdb.KairosDbFixture.connection;
import static org.dsload.kairosdb.KairosDbFixture.query;
import static org.dsload.kairosdb.KairosDbFixture.writer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.testing.SamplerThread;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** KairosDB Write and Query with requests in flight, against the embedded KairosDB (H2). */
@Timeout(300)
@ExtendWith(SharedKairosDb.class)
class KairosDbInFlightIT {
    private static EmbeddedKairosDb kairos;

    @BeforeAll
    static void shared() {
        kairos = SharedKairosDb.server();
    }

    private static KairosDbWriteSampler inFlight(KairosDbWriteSampler w, int n) {
        w.setInFlight(Integer.toString(n));
        return w;
    }

    @Test
    void writesInFlightCountTheirPointsAndKairosDbHoldsEveryOne() {
        KairosDbConnection c = connection(kairos.url());
        SamplerThread run = new SamplerThread(c);
        try (run) {
            run.drain(inFlight(writer("it.flight", 25, 100, 1), 6), SamplerThread.arrivals(40));
        }
        List<Completion> requests = run.requests();
        assertEquals(40, requests.size());
        assertTrue(requests.stream().allMatch(r -> r.outcome().code().equals("204") && r.count() == 25),
                requests.get(0).outcome().code() + " " + requests.get(0).outcome().message());
        assertEquals(1000, run.rows.stream().mapToInt(SampleResult::getSampleCount).sum(), "each row counts its points");
        assertTrue(requests.stream().allMatch(r -> r.outcome().sentBytes() > 25 * 40),
                "bytes on the wire: head and the batch's JSON");
        CrossCheck.Result counted = c.lastCrossCheck();
        assertEquals(1000, counted.reported(), "the ledger has the points of every batch answered");
        assertEquals(1000, counted.found(), "KairosDB holds them: " + counted.note());
    }

    @Test
    void queriesInFlightReadTheirAnswersAndTheLastOnesFigures() {
        KairosDbConnection c = connection(kairos.url());
        c.setCrossCheck("false");
        SamplerThread run = new SamplerThread(c);
        try (run) {
            run.drain(writer("it.read", 10, 10, 3), SamplerThread.arrivals(1));
            KairosDbQuerySampler q = query("it.read.#{m}", 10);
            q.setInFlight("4");
            run.drain(q, SamplerThread.arrivals(20));
        }
        List<Completion> queries = run.requests();
        assertEquals(20, queries.size());
        assertTrue(queries.stream().allMatch(r -> r.outcome().success()
                && r.outcome().message().equals("sample_size 30, results 10")), queries.get(0).outcome().message());
        RequestsResult row = run.rows.get(run.rows.size() - 1);
        assertTrue(row.getSamplerData().startsWith("POST " + KairosDbPaths.QUERY), row.getSamplerData());
        assertTrue(row.getResponseDataAsString().startsWith("{\"queries\":[{\"sample_size\":3,"), row.getResponseDataAsString());
    }

    @Test
    void aPauseShowsInTheBatchesOutstandingDuringItAndInNoOthers() throws Exception {
        KairosDbConnection c = connection(kairos.url());
        c.setCrossCheck("false");
        long[] pause = new long[3];
        SamplerThread run = new SamplerThread(c);
        Thread freezer = new Thread(() -> {
            try {
                run.awaitSamples(10, Duration.ofSeconds(30));
                pause[0] = System.nanoTime();
                kairos.pause();
                Thread.sleep(700);
                pause[2] = System.nanoTime();
                kairos.resume();
                pause[1] = System.nanoTime();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (run) {
            freezer.start();
            run.loopUntil(inFlight(writer("it.pause", 5, 50, 1), 4),
                    () -> !freezer.isAlive() && pause[1] != 0 && run.sentAfter(pause[1] + 300_000_000L) > 10,
                    Duration.ofSeconds(60));
            freezer.join();
        }
        List<Completion> answered = run.requests().stream()
                .filter(r -> !r.outcome().code().equals(InFlightWindow.CANCELLED)).toList();
        // the batches sent before the resume signal that took the pause's length: those outstanding while KairosDB
        // was stopped (4 in flight, none answered, none sent meanwhile). Not those sent after the signal but before
        // the call that sent it returned: on a busy machine that call can last long enough for new batches to go out
        // and be slow to a server just woken (counted with the time after the call, 6 once): see below
        List<Completion> stalled = answered.stream()
                .filter(r -> r.elapsedMicros() >= 500_000 && r.sendNanos() < pause[2]).toList();
        assertFalse(stalled.isEmpty(), "the batches in flight while KairosDB was stopped show it");
        assertTrue(stalled.size() <= 4, "no more than the 4 in flight: " + stalled.size());
        assertTrue(stalled.stream().allMatch(r -> r.endNanos() > pause[0] + 500_000_000L),
                "each of them was outstanding during the pause");
        assertTrue(answered.stream().filter(r -> r.sendNanos() > pause[1] + 200_000_000L)
                .noneMatch(r -> r.elapsedMicros() >= 500_000), "batches sent well after it do not carry it");
    }

    @Test
    void aServerThatStopsAnsweringFailsEachBatchAtItsOwnTimeoutAndAStopCancelsTheRest() {
        KairosDbConnection c = connection(kairos.url());
        c.setResponseTimeout("400");
        c.setCrossCheck("false");
        SamplerThread run = new SamplerThread(c);
        try (run) {
            KairosDbWriteSampler w = inFlight(writer("it.timeout", 5, 50, 1), 3);
            run.loop(w, Duration.ofMillis(300));
            kairos.pause();
            try {
                while (run.count("SocketTimeoutException") < 6) {
                    run.sample(w);
                }
                run.stopTest();
            } finally {
                kairos.resume();
            }
        }
        List<Completion> timedOut = run.requests().stream()
                .filter(r -> r.outcome().code().equals("SocketTimeoutException")).toList();
        assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() >= 400_000 && r.count() == 5),
                "each failed at its own 400 ms, counted as its 5 points");
        assertTrue(timedOut.get(0).outcome().message().contains("within the response timeout of 400 ms"),
                timedOut.get(0).outcome().message());
        assertTrue(run.count(InFlightWindow.CANCELLED) >= 1, "batches outstanding when the test was stopped are cancelled");
        RequestsResult failed = run.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
        assertEquals(failed.getSampleCount(), failed.getErrorCount(), "a failed row counts each point as an error");
    }
}
