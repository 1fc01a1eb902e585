package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,SampleCount,"
            + "ErrorCount,Hostname";

    @TempDir
    Path dir;

    private Path jtl(String... rows) throws IOException {
        Path file = dir.resolve("r.jtl");
        Files.writeString(file, HEADER + "\n" + String.join("\n", rows) + "\n");
        return file;
    }

    private static String row(long start, long elapsed, String label, String code, String message, boolean ok,
            long bytes, long sent, int count) {
        return start + "," + elapsed + "," + label + "," + code + "," + message + ",t 1-1,text," + ok + ",,"
                + bytes + "," + sent + ",1,1,," + elapsed + ",0,0," + count + "," + (ok ? 0 : 1) + ",host";
    }

    @Test
    void figuresOfOneLabelMatchHandComputedValues() throws IOException {
        Path file = jtl(
                row(1000, 10, "get", "OK", "OK", true, 100, 20, 1),
                row(1500, 30, "get", "OK", "OK", true, 100, 20, 1),
                row(2000, 20, "get", "NIL", "nil reply", true, 5, 20, 1),
                row(3000, 40, "get", "WRONGTYPE", "WRONGTYPE Operation", false, 10, 20, 1));
        LabelStats s = Summary.of(file).label("get");
        assertEquals(4, s.requests());
        assertEquals(3, s.successes());
        assertEquals(0.75, s.successRatio());
        // attack: 1000 -> 3000; wait: last start 3000 to its end 3040
        assertEquals(2000, s.attackMillis());
        assertEquals(40, s.waitMillis());
        assertEquals(2.0, s.rate());                       // 4 requests / 2 s
        assertEquals(3 / 2.04, s.throughput(), 1e-9);      // 3 successes / 2.04 s
        // no dsload_timing column: JMeter's milliseconds, kept in microseconds
        assertEquals(25_000.0, s.latencies().mean());
        assertEquals(20_000, s.latencies().percentile(50));
        assertEquals(40_000, s.latencies().percentile(99));
        assertEquals(0, s.microTimedSamples());
        assertEquals(215, s.bytesIn());
        assertEquals(53.75, s.meanBytesIn());
        assertEquals(80, s.bytesOut());
        assertEquals(Map.of("OK", 2L, "NIL", 1L, "WRONGTYPE", 1L), s.statusCodes());
        assertEquals(Map.of("WRONGTYPE Operation", 1L), s.errors());
    }

    @Test
    void aPipelinedSampleCountsAsItsCommands() throws IOException {
        Path file = jtl(row(0, 5, "pipe", "OK", "OK", true, 1000, 500, 100),
                row(1000, 7, "pipe", "OK", "OK", true, 1000, 500, 100));
        Summary summary = Summary.of(file);
        LabelStats s = summary.label("pipe");
        assertTrue(summary.hasSampleCount());
        assertEquals(2, s.samples());
        assertEquals(200, s.requests());
        assertEquals(200.0, s.rate());
        assertEquals(10.0, s.meanBytesIn());
        assertEquals(Map.of("OK", 200L), s.statusCodes());
    }

    @Test
    void labelsKeepTheirOrderAndTheTotalAddsThemUp() throws IOException {
        Path file = jtl(row(0, 1, "load", "OK", "OK", true, 1, 1, 10),
                row(10, 2, "get", "OK", "OK", true, 1, 1, 1),
                row(20, 3, "load", "OK", "OK", true, 1, 1, 10));
        Summary summary = Summary.of(file);
        assertEquals(List.of("load", "get"), summary.labels().stream().map(LabelStats::label).toList());
        assertEquals(21, summary.total().requests());
        assertEquals(3_000, summary.total().latencies().max());
    }

    @Test
    void quotedFieldsWithCommasQuotesAndLineBreaksAreRead() throws IOException {
        Path file = jtl(row(0, 1, "\"a, \"\"quoted\"\" label\"", "ERR", "\"line one\nline two\"", false, 1, 1, 1));
        Summary summary = Summary.of(file);
        LabelStats s = summary.label("a, \"quoted\" label");
        assertEquals(1, s.requests());
        assertEquals(Map.of("line one\nline two", 1L), s.errors());
    }

    @Test
    void aRowCutShortIsSkippedAndCounted() throws IOException {
        Path file = dir.resolve("cut.jtl");
        Files.writeString(file, HEADER + "\n" + row(0, 1, "x", "OK", "OK", true, 1, 1, 1) + "\n1700000000,12,x,O");
        Summary summary = Summary.of(file);
        assertEquals(1, summary.total().requests());
        assertEquals(1, summary.malformedRows());
        assertTrue(SummaryText.render(summary).contains("1 unreadable rows skipped"));
    }

    @Test
    void filesWithoutHeaderOrInXmlAreRefusedWithTheFix() throws IOException {
        Path xml = dir.resolve("x.jtl");
        Files.writeString(xml, "<?xml version=\"1.0\"?>\n<testResults/>\n");
        assertTrue(assertThrows(IOException.class, () -> Summary.of(xml)).getMessage().contains("output_format=csv"));
        Path bare = dir.resolve("bare.jtl");
        Files.writeString(bare, "1,2,3\n");
        assertTrue(assertThrows(IOException.class, () -> Summary.of(bare)).getMessage().contains("print_field_names"));
        Path empty = dir.resolve("empty.jtl");
        Files.writeString(empty, "");
        assertTrue(assertThrows(IOException.class, () -> Summary.of(empty)).getMessage().contains("no samples"));
    }

    @Test
    void microsecondTimingsOfDsloadSamplersAreUsedWhenTheyBelongToTheRow() throws IOException {
        Path file = dir.resolve("us.jtl");
        Files.writeString(file, "timeStamp,elapsed,label,responseCode,responseMessage,success,dsload_timing\n"
                + "1000,0,get,OK,OK,true,1000:250\n"
                + "2000,1,get,OK,OK,true,2000:1250\n"
                + "3000,0,http,200,OK,true,2000:1250\n"   // left over by the previous sample: not this row's
                + "4003,3,get,OK,OK,true,4000:2999\n");   // an end-stamped row
        Summary summary = Summary.of(file);
        LabelStats get = summary.label("get");
        assertEquals(3, get.microTimedSamples());
        assertEquals(250, get.latencies().min());
        assertEquals(1250, get.latencies().percentile(50));
        assertEquals(2999, get.latencies().max());
        LabelStats http = summary.label("http");
        assertEquals(0, http.microTimedSamples());
        assertEquals(0, http.latencies().max());
        String text = SummaryText.render(summary);
        assertTrue(text.contains("Latencies     [min, mean, 50, 90, 95, 99, max]  250µs, 1.5ms, 1.25ms, 2.999ms"), text);
        assertTrue(text.contains("microseconds for 3 of 4 samples"), text);
    }

    @Test
    void textReportHasVegetasLinesAndJsonHasTheFigures() throws IOException {
        Path file = jtl(row(1000, 10, "get", "OK", "OK", true, 100, 20, 1),
                row(2000, 30, "get", "ERR", "ERR boom", false, 10, 20, 1));
        Summary summary = Summary.of(file);
        String text = SummaryText.render(summary);
        for (String line : List.of("Requests      [total, rate, throughput]         2, 2.00, 0.97",
                "Duration      [total, attack, wait]             1.03s, 1s, 30ms",
                "Latencies     [min, mean, 50, 90, 95, 99, max]  10ms, 20ms, 10ms, 30ms, 30ms, 30ms, 30ms",
                "Bytes In      [total, mean]                     110, 55.00",
                "Success       [ratio]                           50.00%",
                "Status Codes  [code:count]                      OK:1  ERR:1",
                "ERR boom (1)")) {
            assertTrue(text.contains(line), "missing '" + line + "' in\n" + text);
        }
        assertFalse(text.contains("All labels"), "one label needs no total block");
        String json = SummaryJson.render(summary);
        assertTrue(json.contains("\"p99\":30"), json);
        assertTrue(json.contains("\"successRatio\":0.5"), json);
        assertTrue(json.contains("\"statusCodes\":{\"OK\":1,\"ERR\":1}"), json);
    }
}
