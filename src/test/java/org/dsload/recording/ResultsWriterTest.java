package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.dsload.core.format.GaugeTable;
import org.dsload.process.Deadline;
import org.dsload.report.JtlReader;
import org.dsload.report.JtlSample;
import org.dsload.testing.HostPrivileges;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The results file without a shared lock: JMeter's lines, every row once, a full disk said out loud. */
class ResultsWriterTest {

    private static SampleEvent event(String label, int i) {
        SampleResult r = new SampleResult(1_700_000_000_000L + i, i % 50);
        r.setSampleLabel(label);
        r.setSuccessful(i % 10 != 0);
        r.setResponseCode(i % 10 != 0 ? "OK" : "ERR");
        r.setResponseMessage(i % 10 != 0 ? "OK" : "ERR bad \"key\", line\nand more #" + i);
        r.setThreadName("t-" + label);
        return new SampleEvent(r, "group");
    }

    private static ResultsWriter writer(Path jtl) {
        JMeterRuntime.init();
        ResultsWriter w = new ResultsWriter();
        w.setFilename(jtl.toString());
        return w;
    }

    private static SampleEvent from(String thread, String label) {
        SampleResult r = new SampleResult(System.currentTimeMillis(), 1);
        r.setSampleLabel(label);
        r.setSuccessful(true);
        r.setThreadName(thread);
        return new SampleEvent(r, "group");
    }

    /** What the master's console shows while {@code run} runs. */
    private static String console(Runnable run) {
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setOut(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theMasterSaysOnceWhenTheEngineThatInjectedTheFaultsEndedBeforeTheOthers(@TempDir Path dir) {
        ResultsWriter w = writer(dir.resolve("r.jtl"));
        String a = "127.0.0.2:40001";
        String b = "127.0.0.3:40002";
        // JMeter gives each remote engine its own copy of the master's listeners
        ResultsWriter wa = writer(dir.resolve("r.jtl"));
        ResultsWriter wb = writer(dir.resolve("r.jtl"));
        String said = console(() -> {
            wa.testStarted(a);
            wb.testStarted(b);
            wb.sampleOccurred(from(b + "-run 1-1", "GET"));
            wa.sampleOccurred(from(a + "-faults 2-1", "fault:pause:redis"));
            wa.sampleOccurred(from(a + "-run 1-1", "GET"));
            wa.testEnded(a);
            wb.testEnded(b);
        });
        assertEquals(List.of(EndForAll.LINE + "the engine that injected the faults (" + a + ") has ended its test"),
                said.lines().filter(l -> l.startsWith(EndForAll.LINE)).toList(), said);

        // an engine that refused the test ends it on the others too
        String refused = console(() -> {
            w.testStarted(a);
            w.testStarted(b);
            SampleEvent config = from(b + "-run 1-1", "GET");
            config.getResult().setSuccessful(false);
            config.getResult().setResponseCode("CONFIG");
            w.sampleOccurred(config);
            w.testEnded(b);
            w.testEnded(a);
        });
        assertEquals(List.of(EndForAll.LINE + "engine " + b + " refused the test (CONFIG)"),
                refused.lines().filter(l -> l.startsWith(EndForAll.LINE)).toList(), refused);

        // the engine that only carried load ending first says nothing, nor does the injecting one ending last
        String quiet = console(() -> {
            w.testStarted(a);
            w.testStarted(b);
            w.sampleOccurred(from(a + "-faults 2-1", "fault:pause:redis"));
            w.testEnded(b);
            w.testEnded(a);
        });
        assertTrue(quiet.lines().noneMatch(l -> l.startsWith(EndForAll.LINE)), quiet);

        // nor a run without faults, nor a local one
        String none = console(() -> {
            w.testStarted(a);
            w.testStarted(b);
            w.sampleOccurred(from(a + "-run 1-1", "GET"));
            w.testEnded(a);
            w.testEnded(b);
            w.testStarted();
            w.sampleOccurred(from("faults 2-1", "fault:pause:redis"));
            w.testEnded();
        });
        assertTrue(none.lines().noneMatch(l -> l.startsWith(EndForAll.LINE)), none);
    }

    @Test
    void manyThreadsWriteEveryRowOnceInJMetersOwnFormat(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        ResultsWriter w = writer(jtl);
        w.testStarted();
        List<Thread> threads = new ArrayList<>();
        int perThread = 5_000;
        for (int t = 0; t < 8; t++) {
            String label = "label, " + t;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    w.sampleOccurred(event(label, i));
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        w.testEnded();

        SampleSaveConfiguration config = new SampleSaveConfiguration();
        List<String> lines = Files.readAllLines(jtl, StandardCharsets.UTF_8);
        assertEquals(CSVSaveService.printableFieldNamesToString(config), lines.get(0), "JMeter's header");
        SampleEvent sample = event("label, 3", 17);
        sample.getResult().setSaveConfig(config);
        assertTrue(lines.contains(CSVSaveService.resultToDelimitedString(sample)), "JMeter's line for a sample");
        Set<String> seen = new HashSet<>();
        int failures = 0;
        try (JtlReader reader = new JtlReader(jtl)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                assertTrue(seen.add(s.label() + "/" + s.start()), "once: " + s.label() + " " + s.start());
                if (!s.success()) {
                    failures++;
                    assertTrue(s.responseMessage().startsWith("ERR bad \"key\", line\nand more #"), s.responseMessage());
                }
            }
            assertEquals(0, reader.malformedRows());
        }
        assertEquals(8 * perThread, seen.size());
        assertEquals(8 * perThread / 10, failures);
    }

    @Test
    void copiesOfTheWriterForSeveralSlavesShareOneFileWithOneHeader(@TempDir Path dir) throws Exception {
        // a distributed run's master holds a copy of the plan per slave, each copy with its writer
        Path jtl = dir.resolve("r.jtl");
        ResultsWriter a = writer(jtl);
        ResultsWriter b = writer(jtl);
        a.testStarted("127.0.0.2");
        b.testStarted("127.0.0.3");
        assertEquals(2, ResultsWriter.users(jtl), "one open file for both copies");
        a.sampleOccurred(event("GET", 1));
        b.sampleOccurred(event("GET", 2));
        a.testEnded("127.0.0.2");
        b.sampleOccurred(event("GET", 3));
        b.testEnded("127.0.0.3");
        assertEquals(0, ResultsWriter.users(jtl), "closed by the last copy to end");
        List<String> lines = Files.readAllLines(jtl, StandardCharsets.UTF_8);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("timeStamp,")).count(), "one header: " + lines);
        assertEquals(4, lines.size(), "the header and every row, also the one after the first copy ended: " + lines);
    }

    @Test
    void aSlavesGaugeLinesAreNoRow(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        ResultsWriter w = writer(jtl);
        w.testStarted("127.0.0.2");
        w.sampleOccurred(event("GET", 1));
        w.sampleOccurred(event(GaugeTable.STREAM_PREFIX + "redis-info.tsv", 2));
        w.sampleOccurred(event("GET", 3));
        w.testEnded("127.0.0.2");
        List<String> lines = Files.readAllLines(jtl, StandardCharsets.UTF_8);
        assertEquals(3, lines.size(), "the header and the requests' rows: " + lines);
        assertTrue(lines.stream().noneMatch(l -> l.contains(GaugeTable.STREAM_PREFIX)), lines.toString());
    }

    @Test
    void rowsReachTheFileWhileTheTestRuns(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        ResultsWriter w = writer(jtl);
        w.testStarted();
        try {
            w.sampleOccurred(event("GET", 1));
            // the writer thread hands rows to the system several times a second, so a killed JVM keeps them
            Deadline.await(() -> lines(jtl) >= 2, Duration.ofSeconds(10), Duration.ofMillis(20));
            assertEquals(2, lines(jtl), "header and the row, before the test ends");
        } finally {
            w.testEnded();
        }
    }

    @Test
    void atAJvmsExitTheSampleUnderWayStillGetsItsRow(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        ResultsWriter w = writer(jtl);
        w.testStarted();
        // a sampler thread whose reply the server sent before Ctrl-C, read and timed just after it
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(1);
        Thread sampler = new Thread(() -> {
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            w.sampleOccurred(event("GET", 1));
            running.decrementAndGet();
        }, "sampler");
        try {
            sampler.start();
            w.exitHook(running::get);
            assertEquals(0, running.get(), "the hook waited for the sample under way");
            assertEquals(2, lines(jtl), "header and the row of the sample that ended after the signal");
        } finally {
            sampler.join();
            w.testEnded();
        }
    }

    @Test
    void aFullDiskStopsWritingWithAMessageNamingTheFile(@TempDir Path dir) throws Exception {
        HostPrivileges.require("a full disk (a 1 MiB tmpfs)", "mount", "umount");
        Path volume = Files.createDirectories(dir.resolve("small"));
        SmallDisk disk = SmallDisk.mount(volume, "1m");
        try {
            Path jtl = volume.resolve("r.jtl");
            ResultsWriter w = writer(jtl);
            w.testStarted();
            String failure = null;
            for (int i = 0; i < 200_000 && failure == null; i++) {
                w.sampleOccurred(event("GET with a long label to fill the disk sooner " + "x".repeat(200), i));
                if (i % 1000 == 0) {
                    Thread.sleep(5);
                    failure = w.failure();
                }
            }
            if (failure == null) {
                Deadline.await(() -> w.failure() != null, Duration.ofSeconds(5), Duration.ofMillis(20));
                failure = w.failure();
            }
            assertNotNull(failure, "the writer noticed the full disk");
            assertTrue(failure.contains(jtl.toString()) && failure.contains("No space left on device")
                    && failure.contains("The test is stopped"), failure);
            w.testEnded();
        } finally {
            disk.close();
        }
    }

    private static long lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
