package org.dsload.kairosdb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A capacity is stated only for measured writes that all succeeded and were found in KairosDB. */
class WriteCapacitySectionTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,SampleCount,"
            + "ErrorCount,Hostname";

    @TempDir
    Path dir;

    /** One batch of 25 points per second from t = 1 s, every {@code failEvery}-th failed (0: none). */
    private Summary writes(String label, int batches, int failEvery) throws IOException {
        StringBuilder rows = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < batches; i++) {
            boolean ok = failEvery == 0 || i % failEvery != 0;
            rows.append(1000 + i * 1000L).append(",10,").append(label).append(',').append(ok ? "204" : "500")
                    .append(",m,t 1-1,text,").append(ok).append(",,0,0,1,1,,10,0,0,25,").append(ok ? 0 : 25)
                    .append(",h\n");
        }
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, rows);
        return Summary.of(jtl);
    }

    private static CapacityRecord record(List<String> writers, List<String> setup, long reported, long setupPoints,
            long found, CapacityRecord.Check check, String note) {
        return new CapacityRecord("master", "kairosdb", writers, List.of(), reported, found, 1000, 9000, 100, note, 0, 0,
                setup, setupPoints, check, 0);
    }

    private String render(Summary summary, CapacityRecord record) throws IOException {
        record.append(dir);
        return new WriteCapacitySection().render(dir, summary).orElseThrow();
    }

    @Test
    void measuredWritesThatAllSucceededAndWereFoundStateTheirCapacity() throws IOException {
        String text = render(writes("write", 9, 0), record(List.of("write"), List.of(), 225, 0, 225,
                CapacityRecord.Check.MATCH, "match"));
        // 225 points from the first start (1 s) to the last end (9.01 s): 1,685.4 points/min
        assertTrue(text.contains("Writes        [points, duration, points/min]    225, 8.01s, 1685"), text);
        assertTrue(text.contains("Resources     [100 metrics/15 s, /180 s]        4, 51"), text);
        assertFalse(text.contains("not stated"), text);
        assertFalse(text.contains("unverified"), text);
    }

    @Test
    void failedPointsMeanNoCapacityAndSayHowMany() throws IOException {
        String text = render(writes("write", 8, 2), record(List.of("write"), List.of(), 100, 0, 100,
                CapacityRecord.Check.MATCH, "match"));
        assertTrue(text.contains("Failed        [points, share]                   100, 50.00%"), text);
        assertTrue(text.contains("Capacity      not stated: 50.00% of the points written failed"), text);
        assertFalse(text.contains("Resources"), text);
    }

    @Test
    void aCrossCheckThatFailedMeansNoCapacityAndAFailedRun() throws IOException {
        CapacityRecord r = record(List.of("write"), List.of(), 225, 0, -1, CapacityRecord.Check.FAILED,
                "count query failed: HTTP 500");
        String text = render(writes("write", 9, 0), r);
        assertTrue(text.contains("Capacity      not stated: the cross-check failed: 225 points reported written "
                + "could not be counted back in KairosDB (count query failed: HTTP 500)"), text);
        assertTrue(text.contains("Verdict: the run FAILED (master, kairosdb): the cross-check failed"), text);
    }

    @Test
    void aCrossCheckThatWasOffLeavesTheCapacityUnverified() throws IOException {
        String text = render(writes("write", 9, 0), record(List.of("write"), List.of(), 225, 0, -1,
                CapacityRecord.Check.SKIPPED, "not checked: Cross-check at test end is off"));
        assertTrue(text.contains("(unverified: the points were not counted back in KairosDB)"), text);
        assertFalse(text.contains("Verdict"), text);
    }

    @Test
    void setupWritesAreNoCapacity() throws IOException {
        String text = render(writes("dashboard", 3, 0), record(List.of("seed"), List.of("seed"), 24000, 24000, 24000,
                CapacityRecord.Check.MATCH, "match"));
        assertTrue(text.contains("Setup writes  [points, failed points]           24000, 0"), text);
        assertFalse(text.contains("Writes  "), text);
        assertFalse(text.contains("Resources"), text);
    }

    @Test
    void aWarmUpsQueriesAreLeftOutOfTheQueriesPerMinute() throws IOException {
        // 3 warm-up queries a second apart, then 6 measured ones a second apart from t = 10 s
        StringBuilder rows = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < 9; i++) {
            String label = i < 3 ? "dashboard query (warm-up)" : "dashboard query";
            rows.append(i < 3 ? 1000 + i * 1000L : 10_000 + (i - 3) * 1000L).append(",0,").append(label)
                    .append(",200,m,t 1-1,text,true,,0,0,1,1,,0,0,0,1,0,h\n");
        }
        Path jtl = dir.resolve("q.jtl");
        Files.writeString(jtl, rows);
        new CapacityRecord("master", "kairosdb", List.of(), List.of("dashboard query (warm-up)", "dashboard query"), 0,
                -1, 0, 0, 0, "", 9, 900, List.of(), 0, CapacityRecord.Check.SKIPPED, 0).append(dir);
        String text = new WriteCapacitySection().render(dir, Summary.of(jtl)).orElseThrow();
        // 6 queries from 10 s to 15 s
        assertTrue(text.contains("Queries       [total, queries/min, points each] 6, 72.0, 100"), text);
    }

    @Test
    void moreFoundThanWrittenFailsMeasuredWritesButNotASeed() {
        assertTrue(record(List.of("w"), List.of(), 100, 0, 150, CapacityRecord.Check.DIFFERS, "count stable")
                .failure().contains("50 more: earlier data in these series and times"));
        assertNull(record(List.of("s"), List.of("s"), 100, 100, 150, CapacityRecord.Check.DIFFERS, "count stable")
                .failure(), "a seed that finds earlier data in its series still seeded what the queries read");
        assertTrue(record(List.of("s"), List.of("s"), 100, 100, 60, CapacityRecord.Check.DIFFERS, "count stable")
                .failure().contains("40 fewer"));
    }

    @Test
    void pointsOfWritesThatGotNoAnswerMayBeHeldWithoutFailingTheRun() throws IOException {
        CapacityRecord r = new CapacityRecord("master", "kairosdb", List.of("write"), List.of(), 200, 230, 1000, 9000, 100,
                "30 of the 40 points whose writes got no answer were stored as well", 0, 0, List.of(), 0,
                CapacityRecord.Check.WITHIN, 40);
        assertNull(r.failure());
        String text = render(writes("write", 8, 0), r);
        assertTrue(text.contains("Cross-check   [dsload reported, KairosDB holds] 200, 230 (within: 30 of the 40 points "
                + "whose writes got no answer were stored as well; counted back in "), text);
        assertFalse(text.contains("Verdict"), text);
        assertEquals(40, CapacityRecord.read(dir.resolve(CapacityRecord.FILE)).get(0).unanswered());
    }

    @Test
    void moreThanThePointsOfWritesThatGotNoAnswerStillDiffers() throws IOException {
        String text = render(writes("write", 8, 0), new CapacityRecord("master", "kairosdb", List.of("write"), List.of(),
                200, 250, 1000, 9000, 100, "count stable", 0, 0, List.of(), 0, CapacityRecord.Check.DIFFERS, 40));
        assertTrue(text.contains("200, 250 (50 more in KairosDB"), text);
    }

    /** A file of an earlier format: the header up to {@code firstMissing}, and one line ending with {@code rest}. */
    private List<CapacityRecord> readOlder(String firstMissing, String rest) throws IOException {
        Files.writeString(dir.resolve(CapacityRecord.FILE), CapacityRecord.HEADER.substring(0,
                CapacityRecord.HEADER.indexOf(firstMissing)) + "\nmaster\tkairosdb\twrite\t\t225\t225\t1000\t9000\t100"
                + rest + "\n");
        return CapacityRecord.read(dir.resolve(CapacityRecord.FILE));
    }

    @Test
    void recordsWrittenBeforeTheUnansweredPointsAreReadAsNone() throws IOException {
        List<CapacityRecord> read = readOlder("\tunanswered_points", "\tmatch\t0\t0\t\t0\tmatch");
        assertEquals(1, read.size());
        assertEquals(0, read.get(0).unanswered());
        assertEquals(CapacityRecord.Check.MATCH, read.get(0).check());
    }

    @Test
    void recordsOfTheEarlierFormatAreStillRead() throws IOException {
        List<CapacityRecord> read = readOlder("\tsetup_labels", "\tmatch\t0\t0");
        assertEquals(1, read.size());
        assertEquals(CapacityRecord.Check.MATCH, read.get(0).check());
        assertEquals(List.of(), read.get(0).setupLabels());
    }

    @Test
    void aCountNoServerAnsweredBecauseKairosDbWasDownSaysSinceWhenAndLeavesTheVerdictToTheRun() throws IOException {
        // KairosDB's own metrics name the server by its host tag; the polls it missed name the address polled
        Files.writeString(dir.resolve(KairosDbServerSection.NAME), "epoch_ms\tnode\tstate\n"
                + "1000\tvm\tok\n2000\tvm\tok\n3000\tKairosDB 127.0.0.1:8080\tunreachable\n"
                + "4000\tKairosDB 127.0.0.1:8080\tunreachable\n");
        CapacityRecord r = record(List.of("write"), List.of(), 225, 0, -1, CapacityRecord.Check.UNREACHABLE,
                "no node answered the count within 5 s after the load: connection refused");
        String text = render(writes("write", 9, 0), r);
        assertTrue(text.contains("Cross-check   [dsload reported, KairosDB holds] 225, not counted: KairosDB "
                + "127.0.0.1:8080 down since "), text);
        assertFalse(text.contains("Verdict: the run FAILED"), text);
    }
}
