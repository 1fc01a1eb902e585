package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.core.format.BatchTiming;
import org.dsload.core.format.TimingValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchTimingTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,"
            + "bytes,sentBytes,SampleCount,ErrorCount,dsload_timing";

    @TempDir
    Path dir;

    @Test
    void entriesRoundTripWithAndWithoutDelayDropsAndCounts() {
        List<BatchTiming.Entry> entries = List.of(
                new BatchTiming.Entry(0, 812, TimingValue.NONE, 0, 1),
                new BatchTiming.Entry(40, 930, 12, 0, 1),
                new BatchTiming.Entry(75, 1500, 30, 2, 1),
                new BatchTiming.Entry(90, 700, TimingValue.NONE, 0, 5),
                new BatchTiming.Entry(95, 701, 3, 0, 4));
        String value = BatchTiming.format(1000, entries);
        assertEquals("1000;0:812;40:930:12;75:1500:30:2;90:700:::5;95:701:3::4", value);
        assertTrue(BatchTiming.isBatch(value));
        assertEquals(entries, BatchTiming.parse(value, 1000, 4));
        assertEquals(1000, BatchTiming.rowStart(value));
    }

    @Test
    void aSingleRequestValueIsNotABatch() {
        assertFalse(BatchTiming.isBatch("1000:250"));
        assertNull(BatchTiming.parse("1000:250", 1000, 0));
    }

    @Test
    void aValueLeftByAnEarlierSampleOfTheThreadIsIgnored() {
        // the row's start is 2000 (or it ends at 2005 after 5 ms): a value stamped 1000 is stale
        assertNull(BatchTiming.parse("1000;0:812", 2000, 5));
        assertEquals(1, BatchTiming.parse("2000;0:812", 2005, 5).size());
    }

    @Test
    void malformedValuesAreRejectedNotMisread() {
        assertNull(BatchTiming.parse("1000;", 1000, 0));
        assertNull(BatchTiming.parse("1000;x:1", 1000, 0));
        assertNull(BatchTiming.parse("1000;1", 1000, 0));
        assertNull(BatchTiming.parse("1000;-1:5", 1000, 0));
        assertNull(BatchTiming.parse("1000;1:5:-3", 1000, 0));
        assertNull(BatchTiming.parse("1000;1:5:1:1:0", 1000, 0));
        assertNull(BatchTiming.parse("1000;1:2:3:4:5:6", 1000, 0));
        assertThrows(IllegalArgumentException.class, () -> new BatchTiming.Entry(0, 5, TimingValue.NONE, 0, 0));
    }

    @Test
    void aBatchRowCountsEveryRequestWithItsOwnLatencyStartAndIntendedStart() throws IOException {
        // three GETs answered together: sent at +0, +300 and +1200 µs after 5000 ms, the last one
        // 2 ms after its intended start; 600 bytes in, 90 out between them
        Path file = dir.resolve("r.jtl");
        Files.writeString(file, HEADER + "\n"
                + "5000,2,get,OK,OK,t 1-1,true,600,90,3,0,5000;0:400:0;300:900:100;1200:2500:2000\n"
                + "9000,1,get,OK,OK,t 1-1,true,200,30,1,0,9000:1000:0\n");
        List<JtlSample> samples = new ArrayList<>();
        try (JtlReader reader = new JtlReader(file)) {
            JtlSample s;
            while ((s = reader.next()) != null) {
                samples.add(s);
            }
            assertEquals(2, reader.rows());
        }
        assertEquals(4, samples.size());
        assertEquals(List.of(400L, 900L, 2500L, 1000L), samples.stream().map(JtlSample::elapsedMicros).toList());
        assertEquals(List.of(5000L, 5000L, 5001L, 9000L), samples.stream().map(JtlSample::start).toList());
        assertEquals(List.of(0L, 100L, 2000L, 0L), samples.stream().map(JtlSample::intendedDelayMicros).toList());
        assertEquals(600, samples.subList(0, 3).stream().mapToLong(JtlSample::bytes).sum());
        assertEquals(90, samples.subList(0, 3).stream().mapToLong(JtlSample::sentBytes).sum());

        LabelStats get = Summary.of(file, 1000).label("get");
        assertEquals(4, get.requests());
        assertEquals(2500, get.latencies().percentile(99));
        assertEquals(400, get.latencies().percentile(1));
        assertEquals(1, get.lateArrivals(), "with a 1 ms limit only the request sent 2 ms late is late");
    }
}
