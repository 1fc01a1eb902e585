package org.dsload.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.dsload.core.format.BatchTiming;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BatchResultTest {
    private static final long MS = 1_000_000;

    @BeforeAll
    static void jmeter() {
        JMeterRuntime.init();
        JMeterContextService.getContext().setVariables(new JMeterVariables());
    }

    private static Completion request(long sendMs, long tookMicros, long intendedMs, Outcome outcome) {
        long base = 1_000 * MS;
        long send = base + sendMs * MS;
        return new Completion(intendedMs < 0 ? Completion.UNSCHEDULED : base + intendedMs * MS, send,
                send + tookMicros * 1000, 0, 1, outcome);
    }

    @Test
    void aRowCountsEveryRequestAndCarriesEachOnesOwnTiming() {
        Outcome ok = Outcome.ok("OK", "OK", 20, 130);
        List<Completion> replies = List.of(request(0, 400, 0, ok), request(1, 900, 0, ok), request(3, 2_500, 1, ok));
        RequestsResult row = BatchResult.of("GET", replies);

        assertEquals(3, row.getSampleCount());
        assertEquals(0, row.getErrorCount());
        assertEquals(3, row.getTime(), "elapsed is the sum of the requests' 3.8 ms, whole ms: JMeter divides it by the count");
        assertEquals(60, row.getSentBytes());
        assertEquals(390, row.getBytesAsLong());
        assertEquals(replies, row.requests());

        String timing = JMeterContextService.getContext().getVariables().get(SampleTiming.VARIABLE);
        List<BatchTiming.Entry> entries = BatchTiming.parse(timing, row.getStartTime(), row.getTime());
        assertEquals(List.of(400L, 900L, 2_500L), entries.stream().map(BatchTiming.Entry::elapsedMicros).toList());
        assertEquals(List.of(0L, 1_000L, 2_000L), entries.stream().map(BatchTiming.Entry::delayMicros).toList());
        assertEquals(3_000, entries.get(2).offsetMicros() - entries.get(0).offsetMicros());
    }

    @Test
    void aRowsSamplerDataSaysHowManyRequestsFollowTheFirst() {
        Outcome ok = Outcome.ok("OK", "OK", 0, 0);
        List<Completion> one = List.of(request(0, 400, -1, ok));
        List<Completion> three = List.of(request(0, 400, -1, ok), request(1, 400, -1, ok), request(2, 400, -1, ok));
        assertEquals("", BatchResult.andMore(one, " ", "requests"));
        assertEquals(" (and 2 more requests in this row)", BatchResult.andMore(three, " ", "requests"));
        assertEquals("\n(and 2 more operations in this row)", BatchResult.andMore(three, "\n", "operations"));
    }

    @Test
    void aFailedRowCountsEveryRequestItStandsForAsAnError() {
        Outcome refused = Outcome.failed("JedisConnectionException", "connection refused", 0, 0);
        RequestsResult row = BatchResult.of("GET", List.of(request(0, 50, -1, refused), request(0, 60, -1, refused)));
        assertFalse(row.isSuccessful());
        assertEquals(2, row.getErrorCount());
        assertEquals("JedisConnectionException", row.getResponseCode());
    }

    @Test
    void requestsOfDifferentOutcomesNeverShareARow() {
        List<Completion> mixed = List.of(request(0, 50, -1, Outcome.ok("OK", "OK", 1, 1)),
                request(0, 50, -1, Outcome.failed("TIMEOUT", "no reply", 1, 0)));
        assertThrows(IllegalArgumentException.class, () -> BatchResult.of("GET", mixed));
        assertThrows(IllegalArgumentException.class, () -> BatchResult.of("GET", List.of()));
    }
}
