package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.report.ExactHistogram;
import org.dsload.report.LabelStats;
import org.dsload.report.RecordingFormat;
import org.dsload.report.Summary;
import org.dsload.testing.HostPrivileges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Histograms mode on one engine: every timed sample of a dsload sampler goes into the interval logs
 * and counts, none becomes a row of its own, one aggregate row per label and second reaches the
 * listeners, and the summary read back from the files agrees with the exact figures of the same samples.
 */
class HistogramRecordingTest {

    @AfterEach
    void endTest() {
        RecordingHarness.reset();
    }

    @Test
    void theSummaryOfTheLogsAgreesWithTheExactFiguresOfTheSameSamplesWithinHdrPrecision(@TempDir Path dir)
            throws Exception {
        RecordingHarness harness = new RecordingHarness(dir, "histograms");
        Recording.testStarted(null);
        ExactHistogram exact = new ExactHistogram();
        AtomicLong failures = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long until = System.currentTimeMillis() + 2_300;
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                harness.enterSamplerThread();
                long i = 0;
                while (System.currentTimeMillis() < until) {
                    // a spread of latencies from 40 µs to about 1.3 s, some above HdrHistogram's exact range
                    long micros = 40 + (i * 7919 + thread * 104729) % 60_000 + (i % 97 == 0 ? 1_234_567 : 0);
                    boolean ok = i % 50 != 7;
                    SampleResult r = RecordingHarness.sample("GET profile", micros, ok, ok ? "OK" : "ERR",
                            ok ? "OK" : (i % 2 == 0 ? "ERR wrong type" : "ERR no such key, really"));
                    assertTrue(r.isIgnore(), "a recorded sample goes to no listener");
                    synchronized (exact) {
                        exact.record(micros);
                    }
                    if (!ok) {
                        failures.incrementAndGet();
                    }
                    if (++i % 20 == 0) {
                        sleep(1);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        Recording.testEnded();

        Summary summary = Summary.of(harness.writeResultsFile());
        LabelStats get = summary.label("GET profile");
        assertNotNull(get, "the label is summarised from the logs");
        assertEquals(exact.count(), get.requests());
        assertEquals(exact.count(), get.samples());
        assertEquals(exact.count() - failures.get(), get.successes());
        assertEquals(failures.get(), get.errors().values().stream().mapToLong(Long::longValue).sum());
        assertTrue(get.errors().containsKey("ERR no such key, really"), get.errors().toString());
        assertEquals(exact.count() * 100, get.bytesIn());
        assertFalse(get.latencies().exact(), "percentiles come from the interval logs");
        for (double p : new double[] {50, 90, 99, 99.9, 100}) {
            long want = exact.percentile(p);
            long got = get.latencies().percentile(p);
            assertTrue(got >= want && got - want <= want / 1000, "p" + p + ": logs " + got + " µs, exact " + want + " µs");
        }
        assertTrue(summary.aggregateRows() >= 3, "one row per label and second: " + summary.aggregateRows());
        long rowRequests = harness.listener.events.stream().mapToLong(e -> e.getResult().getSampleCount()).sum();
        assertEquals(exact.count(), rowRequests, "the aggregate rows count every request");
        assertTrue(summary.recordings().problems().isEmpty(), summary.recordings().problems().toString());
    }

    @Test
    void aResultThatWasNotTimedStaysARow(@TempDir Path dir) {
        RecordingHarness harness = new RecordingHarness(dir, "histograms");
        Recording.testStarted(null);
        harness.enterSamplerThread();
        SampleResult refused = new SampleResult();
        refused.setSampleLabel("GET profile");
        Recording.completed(refused);
        assertFalse(refused.isIgnore());
    }

    @Test
    void inRowsModeNothingIsRecorded(@TempDir Path dir) throws Exception {
        RecordingHarness harness = new RecordingHarness(dir, "rows");
        Recording.testStarted(null);
        harness.enterSamplerThread();
        SampleResult r = RecordingHarness.sample("GET profile", 300, true, "OK", "OK");
        assertFalse(r.isIgnore());
        Recording.testEnded();
        assertFalse(Files.exists(dir.resolve(RecordingFormat.FOLDER)));
    }

    @Test
    void anUnknownModeFailsEverySampleAndStopsTheTest(@TempDir Path dir) {
        RecordingHarness harness = new RecordingHarness(dir, "histogram");
        Recording.testStarted(null);
        harness.enterSamplerThread();
        SampleResult r = RecordingHarness.sample("GET profile", 300, true, "OK", "OK");
        assertFalse(r.isSuccessful());
        assertEquals("CONFIG", r.getResponseCode());
        assertTrue(r.getResponseMessage().contains("dsload.record must be 'rows'"), r.getResponseMessage());
        assertTrue(r.isStopTest());
    }

    @Test
    void rowsOfSeveralRequestsAreRecordedRequestByRequest(@TempDir Path dir) throws Exception {
        RecordingHarness harness = new RecordingHarness(dir, "histograms");
        Recording.testStarted(null);
        harness.enterSamplerThread();
        long now = System.currentTimeMillis();
        Recording.request("GET batch", now, 500, -1, 0, 3, true, "OK", "", 30, 300);
        Recording.request("GET batch", now, 2500, -1, 0, 1, false, "ERR", "ERR busy", 10, 20);
        SampleResult row = new SampleResult();
        Recording.ignore(row);
        assertTrue(row.isIgnore());
        Recording.testEnded();
        LabelStats batch = Summary.of(harness.writeResultsFile()).label("GET batch");
        assertEquals(4, batch.requests());
        assertEquals(2, batch.samples(), "one latency per request timed on its own");
        assertEquals(Map.of("OK", 3L, "ERR", 1L), batch.statusCodes());
        long max = batch.latencies().max();
        assertTrue(max >= 2500 && max - 2500 <= 2500 / 1000, "max " + max + " µs, recorded 2500 µs");
    }

    @Test
    void aDiskThatFillsWhileRecordingStopsTheTestWithAMessageNamingTheFile(@TempDir Path dir) throws Exception {
        HostPrivileges.require("a full disk (a 256 KiB tmpfs)", "mount", "umount");
        Path volume = Files.createDirectories(dir.resolve("small"));
        try (SmallDisk disk = SmallDisk.mount(volume, "256k")) {
            RecordingHarness harness = new RecordingHarness(volume, "histograms");
            Recording.testStarted(null);
            harness.enterSamplerThread();
            RecordingHarness.sample("GET profile", 300, true, "OK", "OK");
            // whatever else fills the disk meanwhile (here: a file written until the disk refuses)
            try (var filler = Files.newOutputStream(volume.resolve("filler"))) {
                byte[] block = new byte[4096];
                while (true) {
                    filler.write(block);
                    filler.flush();
                }
            } catch (java.io.IOException full) {
                // the disk is full
            }
            String failure = null;
            for (int i = 0; i < 100 && failure == null; i++) {
                RecordingHarness.sample("GET profile " + i, 300 + i, true, "OK", "OK");
                Thread.sleep(100);
                failure = harness.listener.events.stream().map(e -> e.getResult())
                        .filter(r -> EngineRecording.FAILURE_CODE.equals(r.getResponseCode()))
                        .map(SampleResult::getResponseMessage).findFirst().orElse(null);
            }
            assertNotNull(failure, "the listeners got a row that says why the test stopped");
            assertTrue(failure.contains(volume.toString()) && failure.contains("No space left on device")
                    && failure.contains("The test is stopped"), failure);
            Recording.testEnded();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
