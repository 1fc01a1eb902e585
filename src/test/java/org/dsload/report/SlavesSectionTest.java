package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlavesSectionTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,"
            + "bytes,sentBytes,SampleCount,Hostname,dsload_timing";

    @TempDir
    Path dir;

    private static String row(long start, long micros, String thread, boolean ok) {
        return start + "," + micros / 1000 + ",get," + (ok ? "OK" : "ERR") + ",m," + thread + "," + ok
                + ",10,5,1,vm," + start + ":" + micros;
    }

    private Summary write(List<String> rows) throws IOException {
        Path jtl = dir.resolve("plan.jtl");
        Files.writeString(jtl, HEADER + "\n" + String.join("\n", rows) + "\n");
        return Summary.of(jtl);
    }

    private static boolean hasRow(String text, String start) {
        return text.lines().anyMatch(l -> l.matches(start + "\\s.*"));
    }

    @Test
    void theSlaveOfASampleIsTheAddressJMeterPutsInFrontOfTheThreadName() {
        SlaveOfSample known = new SlaveOfSample(List.of("10.0.0.1:1099", "10.0.0.1:10990", "gen-1.example:1099"));
        assertEquals("10.0.0.1:1099", known.of("10.0.0.1:1099-read profiles 1-3"));
        assertEquals("10.0.0.1:10990", known.of("10.0.0.1:10990-read profiles 1-3"));
        assertEquals("gen-1.example:1099", known.of("gen-1.example:1099-load 1-1"));
        assertNull(known.of("read profiles 1-1"));
        SlaveOfSample any = new SlaveOfSample(List.of());
        assertEquals("127.0.0.2:41234", any.of("127.0.0.2:41234-read profiles 1-1"));
        assertEquals("[::1]:1099", any.of("[::1]:1099-g 1-1"));
        assertNull(any.of("read profiles 1-1"));
    }

    @Test
    void perSlaveRowsAddUpAndTheMergedPercentilesEqualThoseOfEverySample() throws IOException {
        Random random = new Random(7);
        List<String> rows = new ArrayList<>();
        String[] slaves = {"127.0.0.2:40001", "127.0.0.3:40002"};
        for (int i = 0; i < 5000; i++) {
            String slave = slaves[i % 2];
            // the second slave is slower, so merging is not averaging
            long micros = (i % 2 == 0 ? 100 : 900) + random.nextInt(5000);
            rows.add(row(1_000_000 + i, micros, slave + "-read 1-" + (i % 3 + 1), i % 97 != 0));
        }
        Summary summary = write(rows);
        new SlaveRoster(List.of(new SlaveRoster.Entry(slaves[0], SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry(slaves[1], SlaveRoster.State.USED, 0, ""))).write(dir);

        SlavesSection.Figures f = SlavesSection.figures(dir, summary).orElseThrow();
        assertEquals(List.of(slaves[0], slaves[1]), List.copyOf(f.slaves().keySet()));
        assertEquals(2500, f.slaves().get(slaves[0]).requests());
        assertEquals(2500, f.slaves().get(slaves[1]).requests());
        assertEquals(summary.total().requests(), f.whole().requests());
        assertEquals(summary.total().successes(), f.whole().successes());
        for (double p : new double[] {0, 50, 90, 95, 99, 99.9, 100}) {
            assertEquals(summary.total().latencies().percentile(p), f.whole().latencies().percentile(p), "p" + p);
        }
        assertTrue(f.slaves().get(slaves[0]).latencies().percentile(50) < f.slaves().get(slaves[1]).latencies().percentile(50));

        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(text.startsWith("== Slaves ==\n"), text);
        assertTrue(hasRow(text, "127.0.0.2:40001\\s+used\\s+2500"), text);
        assertTrue(hasRow(text, "127.0.0.3:40002\\s+used\\s+2500"), text);
        assertTrue(hasRow(text, "all slaves\\s+5000"), text);
        assertTrue(text.contains("Percentiles are exact"), text);
        assertFalse(text.contains("Warning"), text);
    }

    @Test
    void lostAndMissingSlavesAreNamedWithTheTime() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "127.0.0.2:40001-read 1-1", true),
                row(1_700_000_001_000L, 300, "127.0.0.3:40002-read 1-1", true),
                row(1_700_000_009_000L, 300, "127.0.0.3:40002-read 1-1", true)));
        new SlaveRoster(List.of(
                new SlaveRoster.Entry("127.0.0.2:40001", SlaveRoster.State.LOST, 1_700_000_002_500L, "process 1 exited"),
                new SlaveRoster.Entry("127.0.0.3:40002", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.9:1099", SlaveRoster.State.MISSING, 1_699_999_999_000L, "Connection refused")))
                .write(dir);
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(hasRow(text, "127.0.0.2:40001\\s+lost\\s+1"), text);
        assertTrue(text.contains("Lost: 127.0.0.2:40001 at "), text);
        assertTrue(text.contains("(2.5 s after the first sample): process 1 exited; its last sample ended "), text);
        assertTrue(text.contains("Missing: 127.0.0.9:1099 could not be reached before the run (Connection refused)"), text);
    }

    @Test
    void aLocalRunHasNoSlavesSection() throws IOException {
        Summary summary = write(List.of(row(1000, 300, "read profiles 1-1", true)));
        assertEquals(Optional.empty(), new SlavesSection().render(dir, summary));
    }

    @Test
    void samplesWithoutASlavePrefixAreShownApartInADistributedRun() throws IOException {
        Summary summary = write(List.of(row(1000, 300, "127.0.0.2:40001-read 1-1", true), row(1001, 300, "odd 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:40001", SlaveRoster.State.USED, 0, ""))).write(dir);
        SlavesSection.Figures f = SlavesSection.figures(dir, summary).orElseThrow();
        assertEquals(1, f.slaves().get(SlavesSection.NO_SLAVE).requests());
        assertEquals(2, f.whole().requests());
    }

    @Test
    void aSlaveWhoseRecordingsCouldNotBeFetchedIsNamedWithWhy() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "127.0.0.2:40001-read 1-1", true),
                row(1_700_000_001_000L, 300, "127.0.0.3:40002-read 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:40001", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:40002", SlaveRoster.State.UNFETCHED, 1_700_000_002_000L,
                        "its recording port 40003: connect timed out"))).write(dir);
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(hasRow(text, "127.0.0.3:40002\\s+unfetched\\s+1\\s.*"), text);
        assertTrue(text.contains("Unfetched: 127.0.0.3:40002 ran to the end, but its recordings (server gauges, counts, "
                + "histograms) could not be fetched after the run (its recording port 40003: connect timed out)"), text);
    }

    @Test
    void theStartSkewIsBetweenTheSlavesFirstSamplesLessTheirClocksMeasuredOffsets() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "127.0.0.2:40001-read 1-1", true),
                row(1_700_000_000_120L, 300, "127.0.0.3:40002-read 1-1", true),
                row(1_700_000_000_050L, 300, "127.0.0.2:40001-read 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:40001", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:40002", SlaveRoster.State.USED, 0, ""))).write(dir);
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(text.contains("Start: 127.0.0.2:40001 +0 ms, 127.0.0.3:40002 +120 ms (each slave's first sample, on "
                + "its own clock); start skew: 120 ms between the first and last engine's start\n"), text);

        // the second slave's clock runs 100 ms ahead of the runner's, as the runner measured it
        Files.writeString(Files.createDirectories(dir.resolve("slaves/127.0.0.3_40002")).resolve("clock-offset-ms"),
                "100\n");
        text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(text.contains("Start: 127.0.0.2:40001 +0 ms, 127.0.0.3:40002 +20 ms (each slave's first sample, less "
                + "its clock's offset from the runner's: 127.0.0.3:40002 100 ms); start skew: 20 ms between the first "
                + "and last engine's start"), text);
    }

    @Test
    void slavesThatNotedWhenTheyStartedTheirThreadsAreTimedByThatAndTheirFirstSamplesFollow() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "127.0.0.2:40001-read 1-1", true),
                row(1_700_000_000_900L, 300, "127.0.0.3:40002-read 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:40001", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:40002", SlaveRoster.State.USED, 0, ""))).write(dir);
        Files.writeString(Files.createDirectories(dir.resolve("slaves/127.0.0.2_40001")).resolve("threads-started"),
                "1699999999500\n");
        Files.writeString(Files.createDirectories(dir.resolve("slaves/127.0.0.3_40002")).resolve("threads-started"),
                "1699999999530\n");
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(text.contains("Start: 127.0.0.2:40001 +0 ms, 127.0.0.3:40002 +30 ms (when each slave started its "
                + "thread groups); start skew: 30 ms between the first and last engine's start\nFirst samples: "
                + "127.0.0.2:40001 +0 ms, 127.0.0.3:40002 +900 ms (each slave's first sample, on its own clock): 900 ms "
                + "apart\n"), text);
    }

    @Test
    void aSlaveOnAnotherMachineIsTimedByItsNotedStartLessItsClocksOffset() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "10.213.1.3:1099-read 1-1", true),
                row(1_700_000_060_200L, 300, "10.213.1.4:1099-read 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("10.213.1.3:1099", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("10.213.1.4:1099", SlaveRoster.State.USED, 0, ""))).write(dir);
        Path ahead = Files.createDirectories(dir.resolve("slaves/10.213.1.4_1099"));
        Files.writeString(Files.createDirectories(dir.resolve("slaves/10.213.1.3_1099")).resolve("threads-started"),
                "1699999999500\n");
        // its clock runs a minute ahead of the runner's: it started 10 ms after the other
        Files.writeString(ahead.resolve("threads-started"), "1700000059510\n");
        Files.writeString(ahead.resolve("clock-offset-ms"), "60000\n");
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(text.contains("Start: 10.213.1.3:1099 +0 ms, 10.213.1.4:1099 +10 ms (when each slave started its "
                + "thread groups); start skew: 10 ms between the first and last engine's start\n"), text);
    }

    @Test
    void aSlaveThatWasCutOffAndCameBackIsNamedWithWhenAndWhy() throws IOException {
        Summary summary = write(List.of(row(1_700_000_000_000L, 300, "10.213.1.3:1099-read 1-1", true),
                row(1_700_000_001_000L, 300, "10.213.1.4:1099-read 1-1", true)));
        new SlaveRoster(List.of(new SlaveRoster.Entry("10.213.1.3:1099", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("10.213.1.4:1099", SlaveRoster.State.RESUMED, 1_700_000_006_000L,
                        "answered nothing for 20.1 s (14 probes): its host did not answer; then it answered again")))
                .write(dir);
        String text = new SlavesSection().render(dir, summary).orElseThrow();
        assertTrue(hasRow(text, "10.213.1.4:1099\\s+resumed\\s+1\\s.*"), text);
        assertTrue(text.contains("Resumed: 10.213.1.4:1099 from 2023-11-14 22:13:26.000 UTC (6.0 s after the first "
                + "sample): answered nothing for 20.1 s (14 probes): its host did not answer; then it answered again, and "
                + "ran to the end.\n"), text);
    }
}
