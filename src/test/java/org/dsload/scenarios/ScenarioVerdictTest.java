package org.dsload.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.report.LabelStats;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main job's row verdict: ok only when the measured window kept its schedule and its success ratio. */
class ScenarioVerdictTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success,dsload_timing\n";

    @TempDir
    Path dir;

    private static String gets(String label, int n, int late, int failed) {
        return gets(label, 10_000, n, late, failed);
    }

    /**
     * {@code n} scheduled requests a millisecond apart from {@code from} ms, the first {@code late}
     * of them 50 ms after their intended start, the first {@code failed} failed.
     */
    private static String gets(String label, long from, int n, int late, int failed) {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < n; i++) {
            long start = from + i;
            boolean ok = i >= failed;
            rows.append(start).append(",1,").append(label).append(ok ? ",OK,OK,true," : ",ERR,ERR boom,false,")
                    .append(start).append(":100:").append(i < late ? 50_000 : 0).append('\n');
        }
        return rows.toString();
    }

    private LabelStats measured(String rows) throws IOException {
        Path jtl = dir.resolve("r" + System.nanoTime() + ".jtl");
        Files.writeString(jtl, HEADER + rows);
        return Summary.of(jtl).measured();
    }

    @Test
    void aWindowWithinAThousandthLateAndAllSuccessfulIsOk() throws IOException {
        ScenarioVerdict v = ScenarioVerdict.of(measured(gets("GET", 2000, 2, 0)), 0.999);
        assertTrue(v.ok(), v.text());
        assertEquals("ok", v.text());
    }

    @Test
    void moreThanAThousandthLateMissesTheScheduleAndSaysByHowMuch() throws IOException {
        ScenarioVerdict v = ScenarioVerdict.of(measured(gets("GET", 2000, 3, 0)), 0.999);
        assertFalse(v.ok());
        assertEquals("missed: schedule, 3 of 2000 arrivals late (0.15 %, at most 0.1 %)", v.text());
    }

    @Test
    void droppedArrivalsCountAgainstTheSchedule() throws IOException {
        String rows = gets("GET", 1000, 0, 0) + "20000,1,GET,OK,OK,true,20000:100:0:5\n";
        ScenarioVerdict v = ScenarioVerdict.of(measured(rows), 0.999);
        assertEquals("missed: schedule, 0 of 1006 arrivals late and 5 dropped (0.5 %, at most 0.1 %)", v.text());
    }

    @Test
    void aLowerSuccessRatioThanTheScenarioKeepsIsMissedToo() throws IOException {
        ScenarioVerdict v = ScenarioVerdict.of(measured(gets("GET", 1000, 0, 20)), 0.99);
        assertEquals("missed: success ratio, 98 % (at least 99 %)", v.text());
        assertTrue(ScenarioVerdict.of(measured(gets("GET", 1000, 0, 20)), 0.95).ok(), "a scenario that expects failures");
        assertEquals("missed: schedule, 500 of 1000 arrivals late (50 %, at most 0.1 %); success ratio, 98 % (at least"
                + " 99.9 %)", ScenarioVerdict.of(measured(gets("GET", 1000, 500, 20)), 0.999).text());
    }

    @Test
    void theWarmUpsLateArrivalsAndFailuresAreNotJudged() throws IOException {
        String rows = gets("GET (warm-up)", 1000, 300, 100) + gets("GET", 30_000, 1000, 1, 0);
        assertTrue(ScenarioVerdict.of(measured(rows), 0.999).ok(), ScenarioVerdict.of(measured(rows), 0.999).text());
    }

    @Test
    void aClosedModelRunHasNoScheduleToMiss() throws IOException {
        String rows = "1000,1,READ,OK,OK,true,1000:100\n1001,1,READ,OK,OK,true,1001:100\n";
        assertTrue(ScenarioVerdict.of(measured(rows), 0.999).ok());
    }

    @Test
    void arrivalsTheRunDidNotSendAreAMissOfTheSchedule() throws IOException {
        ScenarioVerdict v = ScenarioVerdict.of(measured(gets("GET", 2000, 0, 0)), 0.999, "the load did not run as planned:\n"
                + "  scheduled arrivals went unsent: 300 of 2300 (13.0 %) were not sent: 0 dropped, 300 missed");
        assertFalse(v.ok());
        assertEquals("missed: schedule, arrivals went unsent: 300 of 2300 (13.0 %) were not sent: 0 dropped, 300 missed",
                v.text());
    }
}
