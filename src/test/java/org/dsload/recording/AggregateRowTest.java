package org.dsload.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.report.AggregateRowText;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.Test;

/** What an interval's aggregate row carries beyond its fields: the counts the live view needs. */
class AggregateRowTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void theRowCarriesTheIntervalsLateAndDroppedArrivalsAndItsFailuresByCode() {
        JMeterRuntime.init();
        IntervalTally t = new IntervalTally();
        for (int i = 0; i < 30; i++) {
            boolean ok = i % 3 != 0;
            String code = ok ? "OK" : i % 2 == 0 ? "MOVED" : "TIMEOUT";
            long delay = i < 4 ? 12_000 : 2_000; // 4 of them later than 10 ms
            // a pipeline of 3 requests: one arrival, three requests, three failures when it fails
            int requests = i == 3 ? 3 : 1;
            t.add(new RecordedSample("GET", T0 + i, T0 + i + 1, 300 + i, delay, i == 5 ? 2 : 0, requests, ok, code,
                    ok ? "" : code + " reply", 10, 20), ok ? "" : code + " reply");
        }
        SampleResult row = AggregateRow.of("GET", t, T0, "dsload histograms", "master");
        assertEquals(32, row.getSampleCount());
        assertEquals(12, row.getErrorCount(), "every failed request, not JMeter's 1 for a failed row");
        AggregateRowText.Counts counts = AggregateRowText.counts(row.getSamplerData());
        assertEquals(4, counts.late(), "one late arrival per sample, the pipeline's too");
        assertEquals(2, counts.dropped());
        // i = 0, 6, 12, 18, 24: MOVED; 3 (a pipeline of 3), 9, 15, 21, 27: TIMEOUT
        assertEquals(Map.of("TIMEOUT", 7L, "MOVED", 5L), counts.failures());
        assertEquals(List.of("TIMEOUT", "MOVED"), List.copyOf(counts.failures().keySet()), "most failures first");
        assertEquals("TIMEOUT", row.getResponseCode());
        assertEquals(32, AggregateRowText.raw(row.getSamplerData()).getTotalCount() + 2,
                "the histogram holds one latency per sample: the pipeline is one");
    }

    @Test
    void aTextWithoutCountsReadsAsNone() {
        assertNull(AggregateRowText.counts("dsload histograms mode: this row stands for 3 requests\nraw HISTFAAAA\n"));
        assertNull(AggregateRowText.counts(null));
        assertNull(AggregateRowText.counts("late 3\ndropped x\n"));
    }

    @Test
    void aCodeWithSpacesOrLineBreaksSurvivesTheText() {
        String text = AggregateRowText.of("GET", 3, "master", new org.HdrHistogram.Histogram(3), null,
                new AggregateRowText.Counts(1, 0, Map.of("Non HTTP response code: java.net.SocketException", 2L,
                        "TWO\nLINES", 1L)));
        assertEquals(Map.of("Non HTTP response code: java.net.SocketException", 2L, "TWO LINES", 1L),
                AggregateRowText.counts(text).failures());
    }
}
