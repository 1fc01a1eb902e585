package org.dsload.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.apache.jmeter.samplers.SampleResult;
import org.dsload.report.AggregateRowText;
import org.dsload.report.JtlSample;
import org.dsload.report.RecordingFormat;
import org.dsload.report.Summary;
import org.dsload.report.SummaryText;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveSummaryTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void jmeter() {
        JMeterRuntime.init();
    }

    private static SampleResult result(long start, long elapsedMillis, String label, boolean ok, String code,
            int count) {
        SampleResult r = new SampleResult(start, elapsedMillis);
        r.setSampleLabel(label);
        r.setSuccessful(ok);
        r.setResponseCode(code);
        r.setResponseMessage(ok ? "OK" : "WRONGTYPE Operation against a key");
        r.setBytes(100L + start % 7);
        r.setSentBytes(20);
        r.setSampleCount(count);
        return r;
    }

    @Test
    void showsTheFiguresTheSummaryPrintsForTheSameSamplesAsAFile() throws IOException {
        LiveSummary live = new LiveSummary();
        List<String> rows = new ArrayList<>();
        rows.add("timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,SampleCount,dsload_timing");
        for (int i = 0; i < 500; i++) {
            long start = 1_700_000_000_000L + i * 3L;
            String label = i % 5 == 0 ? "SET profile" : "GET profile";
            boolean ok = i % 97 != 0;
            int count = label.startsWith("SET") ? 100 : 1;
            long micros = 150 + (i * 37L) % 900;
            String timing = start + ":" + micros;
            SampleResult r = result(start, micros / 1000, label, ok, ok ? "OK" : "WRONGTYPE", count);
            live.add(SampleRows.of(r, timing));
            rows.add(start + "," + micros / 1000 + "," + label + "," + r.getResponseCode() + ","
                    + r.getResponseMessage() + "," + ok + "," + r.getBytesAsLong() + ",20," + count + "," + timing);
        }
        Path jtl = dir.resolve("same.jtl");
        Files.write(jtl, rows, StandardCharsets.UTF_8);
        Summary fromFile = Summary.of(jtl);

        String shown = live.render();
        assertTrue(shown.endsWith(SummaryText.blocks(fromFile.labels(), fromFile.total())), shown);
        assertTrue(shown.contains("Resolution: microseconds for every sample."), shown);
        assertTrue(shown.contains("== GET profile =="), shown);
        assertEquals(500, live.samples());
    }

    @Test
    void aTimingLeftByAnEarlierSampleIsNotTakenForThisOne() {
        SampleResult r = result(5_000, 2, "GET", true, "OK", 1);
        assertFalse(SampleRows.of(r, "4990:123").timedInMicros());
        assertEquals(2_000, SampleRows.of(r, "4990:123").elapsedMicros());
        assertEquals(123, SampleRows.of(r, "5000:123").elapsedMicros());
        assertEquals(2_000, SampleRows.of(r, "").elapsedMicros());
    }

    @Test
    void aBatchRowCountsAsOneSamplePerRequestAsInAFile() {
        SampleResult r = result(5_000, 3, "GET", true, "OK", 3);
        List<JtlSample> requests = SampleRows.requests(r, "5000;0:400;200:900:50;800:1700");
        assertEquals(List.of(400L, 900L, 1700L), requests.stream().map(JtlSample::elapsedMicros).toList());
        assertEquals(50, requests.get(1).intendedDelayMicros());
        assertEquals(List.of(3_000L), SampleRows.requests(r, "4990;0:400").stream().map(JtlSample::elapsedMicros).toList(),
                "a batch value of an earlier sample is not this one's: JMeter's milliseconds stand");
    }

    @Test
    void clearingForgetsEverySample() {
        LiveSummary live = new LiveSummary();
        live.add(SampleRows.of(result(1_000, 1, "GET", true, "OK", 1), ""));
        long before = live.version();
        live.clear();
        assertEquals(0, live.samples());
        assertEquals("", live.render());
        assertTrue(live.version() > before, "a clear is a change the GUI shows");
    }

    @Test
    void aggregateRowsOfHistogramsModeCountEveryRequestAndShowTheLatenciesTheyCarry() {
        Histogram second = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            second.recordValue(100 + i);
        }
        SampleResult row = result(1_700_000_000_000L, 150, "GET profile", true, "OK", 1000);
        row.setSamplerData(AggregateRowText.of("GET profile", 1000, "master", second, null));
        LiveSummary live = new LiveSummary();
        live.add(SampleRows.aggregate(row, RecordingFormat.aggregateTiming("master", 1_700_000_000_000L,
                1_700_000_001_000L)));
        String text = live.render();
        assertTrue(text.contains("Latencies: " + SummaryText.HDR_METHOD), text);
        assertTrue(text.contains("Requests      [total, rate, throughput]         1000,"), text);
        assertTrue(text.matches("(?s).*Latencies +\\[min, mean, 50, 90, 95, 99, max\\] +101µs, .*, 600µs, .*1.1ms.*"),
                text);

        SampleResult stripped = result(1_700_000_001_000L, 150, "GET profile", true, "OK", 500);
        live.add(SampleRows.aggregate(stripped, RecordingFormat.aggregateTiming("slave-x", 1_700_000_001_000L,
                1_700_000_002_000L)));
        assertTrue(live.render().contains("Latencies of 500 samples are in their engines' interval logs only"),
                live.render());
        assertEquals(null, SampleRows.aggregate(row, "1700000000000:150"), "a row of one sample is no aggregate");
    }
}
