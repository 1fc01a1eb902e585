package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a store stopped answering, read from the results file's requests per second. */
class OutagesTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success\n";
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    /** One row per 100 ms from {@code fromSecond} (inclusive) to {@code toSecond} (exclusive). */
    private static String rows(int fromSecond, int toSecond, boolean success, String code) {
        StringBuilder out = new StringBuilder();
        for (long t = T0 + fromSecond * 1000L; t < T0 + toSecond * 1000L; t += 100) {
            out.append(t).append(",1,GET,").append(code).append(",m,").append(success).append('\n');
        }
        return out.toString();
    }

    private List<Outages.Outage> outages(String rows) throws IOException {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + rows, StandardCharsets.UTF_8);
        return Outages.of(Summary.of(jtl).requestSeconds());
    }

    @Test
    void aSpanOfFailuresBetweenSuccessesIsAnOutageFromTheLastSuccessToTheNext() throws IOException {
        List<Outages.Outage> found = outages(rows(0, 5, true, "OK") + rows(5, 9, false, "ConnectException")
                + rows(9, 12, true, "OK"));
        assertEquals(1, found.size(), found.toString());
        Outages.Outage o = found.get(0);
        assertEquals(T0 + 5000, o.startMillis());
        assertEquals(T0 + 9000, o.endMillis());
        assertEquals(40, o.failed());
        assertEquals(Map.of("ConnectException", 40L), o.codes());
        assertTrue(!o.toEnd());
    }

    @Test
    void silenceBeforeTheFirstFailureBelongsToTheOutageAsAFrozenStoreAnswersNothing() throws IOException {
        // requests hang from second 5 and time out in second 8
        List<Outages.Outage> found = outages(rows(0, 5, true, "OK") + rows(8, 10, false, "TIMEOUT"));
        assertEquals(1, found.size(), found.toString());
        assertEquals(T0 + 5000, found.get(0).startMillis());
        assertTrue(found.get(0).toEnd(), "it lasted to the end of the run");
    }

    @Test
    void aFailureOrASecondOfErrorsAmongSuccessesIsNoOutage() throws IOException {
        assertEquals(List.of(), outages(rows(0, 3, true, "OK") + rows(3, 4, false, "ERR") + rows(4, 8, true, "OK")));
        assertEquals(List.of(), outages(rows(0, 10, true, "OK") + rows(0, 10, false, "ERR")), "mixed seconds are alive");
    }

    @Test
    void failuresThatStopBeforeTheRunEndsLastToTheRunsEndAsItsEnginesSawIt() throws IOException {
        // the store died in second 5; a second of failures, then the engine sent nothing until it gave up at 14
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + rows(0, 5, true, "OK") + rows(5, 6, false, "CONNECTIONLOSS"), StandardCharsets.UTF_8);
        RequestSeconds seconds = Summary.of(jtl).requestSeconds();
        assertEquals(List.of(), Outages.of(seconds), "the failures alone span less than " + Outages.MIN_MILLIS + " ms");
        List<Outages.Outage> found = Outages.of(seconds, T0 + 14_000);
        assertEquals(1, found.size(), found.toString());
        assertEquals(T0 + 5000, found.get(0).startMillis());
        assertEquals(T0 + 14_000, found.get(0).endMillis());
        assertTrue(found.get(0).toEnd());
        assertEquals(List.of(), Outages.of(seconds, T0 + 1000), "an end before the last request changes nothing");
    }
}
