package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.HdrHistogram.HistogramLogProcessor;
import org.dsload.report.BaselineLimits;
import org.dsload.report.IntervalLogReader;
import org.dsload.report.LabelStats;
import org.dsload.report.Limits;
import org.dsload.report.RecordedInterval;
import org.dsload.report.RecordingFormat;
import org.dsload.report.RecordingSection;
import org.dsload.report.Recordings;
import org.dsload.report.RunComparison;
import org.dsload.report.RunResults;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files of histograms mode: HdrHistogram's own format, a log cut short, engines whose clocks differ. */
class IntervalLogsTest {
    private static final long T0 = 1_700_000_000_000L;

    /** Writes {@code seconds} intervals of one label, each with {@code perSecond} samples of known latencies. */
    private static void engine(Path folder, String engine, long clockAhead, int seconds, int perSecond) throws Exception {
        engine(folder, engine, clockAhead, seconds, perSecond, 0);
    }

    /** As above, every latency {@code slowerMicros} longer. */
    private static void engine(Path folder, String engine, long clockAhead, int seconds, int perSecond,
            long slowerMicros) throws Exception {
        IntervalFiles files = new IntervalFiles(folder, engine, T0 + clockAhead);
        for (int s = 0; s < seconds; s++) {
            IntervalTally t = new IntervalTally();
            long start = T0 + clockAhead + s * 1000L;
            for (int i = 0; i < perSecond; i++) {
                t.add(new RecordedSample("GET profile", start + i, start + i + 1, 100 + i * 10L + s + slowerMicros, -1, 0, 1,
                        true, "OK", "", 10, 20), "");
            }
            files.write("GET profile", t, start, start + 1000);
            files.endInterval(start, start + 1000);
        }
        files.close();
    }

    @Test
    void hdrHistogramsOwnLogProcessorReadsTheLog(@TempDir Path dir) throws Exception {
        Path folder = dir.resolve(RecordingFormat.FOLDER).resolve("master");
        engine(folder, "master", 0, 3, 500);
        Path log = folder.resolve("GET" + "%20profile" + RecordingFormat.RAW_SUFFIX);
        assertTrue(Files.isRegularFile(log), "the label names the log: " + log);
        Path out = dir.resolve("processed");
        new HistogramLogProcessor(new String[] {"-i", log.toString(), "-o", out.toString(), "-outputValueUnitRatio",
            "1000"}).run();
        String distribution = Files.readString(Path.of(out + ".hgrm"), StandardCharsets.UTF_8);
        assertTrue(distribution.contains("Total count    =         1500"), distribution);
        List<String> intervals = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(3, intervals.stream().filter(l -> l.matches("\\s*[\\d.]+: I:500 .*")).count(), intervals.toString());
    }

    @Test
    void aLogCutShortIsReadUpToItsLastWholeIntervalWithAWarning(@TempDir Path dir) throws Exception {
        Path folder = dir.resolve(RecordingFormat.FOLDER).resolve("master");
        engine(folder, "master", 0, 4, 200);
        Path log = folder.resolve("GET%20profile" + RecordingFormat.RAW_SUFFIX);
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.setLength(f.length() - 40); // the killed engine was writing its fourth interval
        }
        try (IntervalLogReader reader = new IntervalLogReader(log)) {
            assertEquals("GET profile", reader.label());
            for (int s = 0; s < 3; s++) {
                IntervalLogReader.Interval i = reader.next();
                assertEquals(T0 + s * 1000L, i.start());
                assertEquals(200, i.histogram().getTotalCount());
            }
            assertNull(reader.next());
            assertTrue(reader.problem().contains("cut short"), reader.problem());
        }
        Summary summary = Summary.of(Files.writeString(dir.resolve("r.jtl"), "timeStamp,elapsed,label,success\n"));
        LabelStats get = summary.label("GET profile");
        assertEquals(600, get.requests(), "three whole intervals");
        assertTrue(summary.recordings().problems().stream().anyMatch(p -> p.contains("cut short")),
                summary.recordings().problems().toString());
    }

    @Test
    void anEngineLostMidRunKeepsWhatItRecordedAndTheSummaryNamesTheSecondsItMissed(@TempDir Path dir)
            throws Exception {
        Path root = dir.resolve(RecordingFormat.FOLDER);
        engine(root.resolve("slave-a"), "slave-a", 0, 10, 50);
        engine(root.resolve("slave-b"), "slave-b", 0, 4, 50);
        Path jtl = Files.writeString(dir.resolve("r.jtl"), "timeStamp,elapsed,label,success\n");
        Summary summary = Summary.of(jtl);
        assertEquals(10 * 50 + 4 * 50, summary.total().requests(), "the lost engine's four seconds count");
        List<String> gaps = RecordingSection.gaps(summary.recordings());
        assertEquals(1, gaps.size(), gaps.toString());
        assertTrue(gaps.get(0).startsWith("slave-b: intervals missing from "), gaps.get(0));
        assertTrue(gaps.get(0).contains("(6.0 s): the engine recorded nothing after that"), gaps.get(0));
        String text = new RecordingSection().render(dir, summary).orElseThrow();
        assertTrue(text.contains(gaps.get(0)), text);
    }

    @Test
    void enginesWhoseClocksDifferByAKnownOffsetMergeSecondBySecondAndExactlyInTotal(@TempDir Path dir)
            throws Exception {
        Path root = dir.resolve(RecordingFormat.FOLDER);
        engine(root.resolve("slave-a"), "slave-a", 0, 5, 100);
        // this engine's clock runs 3.25 s ahead; the runner measured it and wrote it beside its files
        engine(root.resolve("slave-b"), "slave-b", 3_250, 5, 300);
        Files.writeString(root.resolve("slave-b").resolve(RecordingFormat.CLOCK_OFFSET), "3250\n");

        Recordings recordings = Recordings.read(dir, List.of());
        TreeMap<Long, List<String>> seconds = new TreeMap<>();
        recordings.bySecond(same -> seconds.put(Math.floorDiv(same.get(0).start(), 1000),
                same.stream().map(RecordedInterval::engine).sorted().toList()));
        assertEquals(5, seconds.size(), "both engines' seconds line up: " + seconds);
        seconds.values().forEach(engines -> assertEquals(List.of("slave-a", "slave-b"), engines));
        assertEquals(T0 / 1000, (long) seconds.firstKey());

        List<RecordedInterval> all = new ArrayList<>();
        recordings.forEach(all::add);
        long merged = all.stream().mapToLong(i -> i.raw().getTotalCount()).sum();
        assertEquals(5 * 100 + 5 * 300, merged);
        Summary summary = Summary.of(Files.writeString(dir.resolve("r.jtl"), "timeStamp,elapsed,label,success\n"));
        LabelStats get = summary.label("GET profile");
        assertEquals(2000, get.requests());
        assertEquals(T0, get.firstStart(), "times are on the runner's clock");
        // the merged histogram is the sum of both engines': its maximum is engine b's largest value
        assertEquals(100 + 299 * 10 + 4, get.latencies().max(), 3);
    }

    @Test
    void aFailedBatchOfPointsIsOneErrorAndAllItsPointsInTheStatusCodes(@TempDir Path dir) throws Exception {
        Path folder = dir.resolve(RecordingFormat.FOLDER).resolve("master");
        IntervalFiles files = new IntervalFiles(folder, "master", T0);
        IntervalTally t = new IntervalTally();
        for (int i = 0; i < 4; i++) { // four batches of 25 points, each one request the server refused
            t.add(new RecordedSample("write", T0 + i, T0 + i + 1, 900, -1, 0, 25, false, "503", "busy", 100, 50, 1),
                    "busy");
        }
        t.add(new RecordedSample("write", T0 + 5, T0 + 6, 900, -1, 0, 25, true, "204", "", 100, 50, 1), "");
        files.write("write", t, T0, T0 + 1000);
        files.endInterval(T0, T0 + 1000);
        files.close();
        LabelStats write = Summary.of(Files.writeString(dir.resolve("r.jtl"), "timeStamp,elapsed,label,success\n"))
                .label("write");
        assertEquals(125, write.requests(), "the points");
        assertEquals(100, write.statusCodes().get("503"), "the status codes count the points");
        assertEquals(java.util.Map.of("busy", 4L), write.errors(), "the Error Set counts the requests sent");
    }

    @Test
    void checkJudgesPercentilesFromTheLogsAndRefusesWhenAnEnginesLogsAreMissing(@TempDir Path dir) throws Exception {
        engine(dir.resolve(RecordingFormat.FOLDER).resolve("master"), "master", 0, 3, 100);
        Path jtl = Files.writeString(dir.resolve("r.jtl"), "timeStamp,elapsed,label,success\n");
        Limits limits = new Limits().maxPercentile(99, 10_000);
        Limits.Verdict judged = limits.judge(Summary.of(jtl).label("GET profile")).get(0);
        assertTrue(judged.held(), judged.line());
        assertTrue(judged.line().contains("HdrHistogram, 3 significant digits, from the engines' interval logs"),
                judged.line());

        // a slave whose files never reached the run folder: its rows count, its latencies are unknown
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("r.jtl"), "timeStamp,elapsed,label,success,SampleCount,ErrorCount,dsload_timing\n"
                + T0 + ",900,GET profile,true,300,0," + RecordingFormat.aggregateTiming("slave-x", T0, T0 + 1000) + "\n");
        LabelStats get = Summary.of(other.resolve("r.jtl")).label("GET profile");
        assertEquals(300, get.requests());
        assertEquals(300, get.samplesWithoutLatency());
        Limits.Verdict refused = limits.judge(get).get(0);
        assertFalse(refused.held(), "no percentile is judged without its latencies");
        assertTrue(refused.line().contains("cannot be judged: 300 samples have no latency"), refused.line());
    }

    @Test
    void compareAndCheckReadRunFoldersOfHistogramsMode(@TempDir Path dir) throws Exception {
        Path[] runs = {dir.resolve("a"), dir.resolve("b"), dir.resolve("slower")};
        long[] slower = {0, 0, 2000};
        for (int r = 0; r < runs.length; r++) {
            engine(runs[r].resolve(RecordingFormat.FOLDER).resolve("master"), "master", 0, 12, 100, slower[r]);
            Files.writeString(runs[r].resolve("run.properties"), "plan=/p/get.jmx\n");
            Files.writeString(runs[r].resolve("get.jtl"), "timeStamp,elapsed,label,success\n");
        }
        RunComparison.Run a = RunComparison.Run.read(runs[0]);
        assertFalse(a.summary().label("GET profile").latencies().exact(), "percentiles from the interval logs");
        RunComparison alike = RunComparison.of(a, RunComparison.Run.read(runs[1]), 0.01, 0.1);
        assertFalse(alike.regressed(), alike.text());
        RunComparison slowed = RunComparison.of(a, RunComparison.Run.read(runs[2]), 0.01, 0.1);
        assertTrue(slowed.labels().get(0).latency().regressed(), slowed.text());
        assertEquals(10, slowed.labels().get(0).latency().test().n2(), "each second of the logs, but the first and last");
        List<Limits.Verdict> verdicts = new BaselineLimits().maxPercentileIncrease(99, 0.1)
                .judge(Summary.of(RunResults.find(runs[2])).label("GET profile"), a.summary().label("GET profile"));
        assertFalse(verdicts.get(0).held(), verdicts.get(0).line());
    }
}
