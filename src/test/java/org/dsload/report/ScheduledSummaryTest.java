package org.dsload.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's figures for samples under an arrival schedule, and for transport errors. */
class ScheduledSummaryTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success,dsload_timing\n";

    @TempDir
    Path dir;

    private Summary summary(String rows) throws IOException {
        Path file = dir.resolve("s.jtl");
        Files.writeString(file, HEADER + rows);
        return Summary.of(file);
    }

    /** An arrival every 100 ms; the fourth waited 900 ms for a thread (a stall), the fifth 50 ms. */
    private static final String STALLED = ""
            + "1000,1,get,OK,OK,true,1000:1000:0\n"
            + "1100,1,get,OK,OK,true,1100:1000:0\n"
            + "1200,1,get,OK,OK,true,1200:1000:0\n"
            + "2200,1,get,OK,OK,true,2200:1000:900000\n"
            + "1450,1,get,OK,OK,true,1450:1000:50000:2\n";   // two arrivals dropped before it

    @Test
    void correctedLatencyAddsTheWaitForTheIntendedStart() throws IOException {
        LabelStats get = summary(STALLED).label("get");
        assertEquals(5, get.scheduledSamples());
        assertEquals(1000, get.latencies().max(), "the raw latency hides the stall");
        assertEquals(901_000, get.corrected().max());
        assertEquals(51_000, get.corrected().percentile(80));
        assertEquals(1000, get.corrected().percentile(50));
    }

    @Test
    void lateAndDroppedArrivalsAreCounted() throws IOException {
        LabelStats get = summary(STALLED).label("get");
        assertEquals(2, get.lateArrivals(), "900 ms and 50 ms are beyond the 10 ms default");
        assertEquals(2, get.droppedArrivals());
        assertEquals(7, get.arrivals());
        Path file = dir.resolve("s2.jtl");
        Files.writeString(file, HEADER + STALLED);
        assertEquals(1, Summary.of(file, 100_000).label("get").lateArrivals(), "a 100 ms threshold");
    }

    @Test
    void targetRateComesFromTheIntendedStartsAndAchievedFromTheActualOnes() throws IOException {
        // intended: 1000, 1100, 1200, 1300, 1400 ms plus 2 dropped -> 6 intervals in 400 ms
        LabelStats get = summary(STALLED).label("get");
        assertEquals(15.0, get.targetRate(), 1e-9);
        // actual starts 1000 .. 2200 ms: 4 intervals in 1.2 s
        assertEquals(4 / 1.2, get.achievedRate(), 1e-9);
        assertEquals(4 / 1.2 / 15.0, get.achievedRatio(), 1e-9);
    }

    @Test
    void theTextHasTheRateArrivalsAndCorrectedRowsAndAWarning() throws IOException {
        String text = SummaryText.render(summary(STALLED));
        for (String line : new String[] {
                "Rate          [target, achieved, ratio]         15.00, 3.33, 22.22%",
                "Arrivals      [total, late, dropped]            7, 2, 2",
                "Latencies     [min, mean, 50, 90, 95, 99, max]  1ms, 1ms, 1ms, 1ms, 1ms, 1ms, 1ms",
                "Corrected     [min, mean, 50, 90, 95, 99, max]  1ms, 191ms, 1ms, 901ms, 901ms, 901ms, 901ms",
                "Warning: the generator did not keep its schedule: 2 of 7 arrivals started late, 2 were dropped"}) {
            assertTrue(text.contains(line), "missing '" + line + "' in\n" + text);
        }
        String json = SummaryJson.render(summary(STALLED));
        assertTrue(json.contains("\"dropped\":2"), json);
        assertTrue(json.contains("\"correctedLatencyMs\":{\"min\":1,\"mean\":191,\"p50\":1"), json);
    }

    @Test
    void theWarningJudgesTheMeasuredWindowAndTheWarmUpsLateArrivalsAreANoteApart() throws IOException {
        String warmUp = STALLED.replace(",get,", ",get (warm-up),");
        String measured = "3000,1,get,OK,OK,true,3000:1000:0\n3100,1,get,OK,OK,true,3100:1000:20000\n"
                + "3200,1,get,OK,OK,true,3200:1000:0\n";
        Summary s = summary(warmUp + measured);
        assertEquals(3, s.measured().arrivals());
        assertEquals(1, s.measured().lateArrivals());
        assertEquals(2, s.warmUp().lateArrivals());
        assertEquals(2, s.warmUp().droppedArrivals());
        assertEquals(3, s.total().lateArrivals(), "the total still holds every request");
        String text = SummaryText.render(s);
        assertTrue(text.contains("Warning: the generator did not keep its schedule in the measured window: 1 of 3 "
                + "arrivals started late, 0 were dropped"), text);
        assertTrue(text.contains("Warm-up: 2 of its 7 arrivals started late, 2 were dropped (labels ending in "
                + "'(warm-up)')"), text);
        assertTrue(SummaryJson.render(s).contains("\"measured\":{\"label\":\"" + Summary.MEASURED + "\""),
                SummaryJson.render(s));

        String onTime = measured.replace(":20000", ":0");
        String quiet = SummaryText.render(summary(warmUp + onTime));
        assertFalse(quiet.contains("Warning: the generator did not keep its schedule"), quiet);
        assertTrue(quiet.contains("Warm-up: 2 of its 7 arrivals started late"), quiet);
        assertEquals(summary(onTime).measured().requests(), summary(onTime).total().requests(),
                "without a warm-up the measured window is the whole run");
    }

    @Test
    void samplesOutsideAScheduleHaveNoCorrectedRow() throws IOException {
        Summary s = summary("1000,1,get,OK,OK,true,1000:1000\n2000,1,get,OK,OK,true,2000:1000\n");
        assertEquals(0, s.label("get").scheduledSamples());
        String text = SummaryText.render(s);
        assertFalse(text.contains("Corrected"), text);
        assertFalse(text.contains("Arrivals"), text);
    }

    @Test
    void aJMeterSamplerUnderAScheduleHasMillisecondsAndADelay() throws IOException {
        LabelStats http = summary("1000,12,write,204,No Content,true,1000::3000\n").label("write");
        assertEquals(0, http.microTimedSamples());
        assertEquals(12_000, http.latencies().max());
        assertEquals(15_000, http.corrected().max());
    }

    @Test
    void transportErrorsOfJMetersHttpSamplerCountAsStatusCodeZero() throws IOException {
        Summary s = summary(""
                + "1000,1,write,204,No Content,true,\n"
                + "1001,2,write,Non HTTP response code: java.net.ConnectException,"
                + "Non HTTP response message: Connection refused,false,\n"
                + "1002,3,write,500,Internal Server Error,false,\n");
        LabelStats write = s.label("write");
        assertEquals(Map.of("204", 1L, "0", 1L, "500", 1L), write.statusCodes());
        assertTrue(write.errors().containsKey("Non HTTP response message: Connection refused (java.net.ConnectException)"),
                write.errors().toString());
        assertTrue(SummaryText.render(s).contains("Status Codes  [code:count]                      204:1  0:1  500:1"),
                SummaryText.render(s));
    }

    @Test
    void overSeveralSecondsTheTargetIsTheTypicalSecondAndAStrayTimestampDoesNotMoveIt() throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 100; i++) { // 20 per second for 5 s, on time
            long start = 10_000 + i * 50;
            rows.append(start).append(",1,get,OK,OK,true,").append(start).append(":100:0\n");
        }
        // one sample whose timestamp is 2 s off its neighbours'
        rows.append("17000,1,get,OK,OK,true,17000:100:0\n");
        LabelStats get = summary(rows.toString()).label("get");
        assertEquals(20.0, get.targetRate(), 1e-9);
    }

    @Test
    void aTargetBelowOnePerSecondReadsAsSetPerMinuteWithItsRatio() throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 60; i++) { // 30 a minute for 2 minutes, each 10 ms late
            long intended = 100_000 + i * 2000L;
            rows.append(intended + 10).append(",1,query,OK,OK,true,").append(intended + 10).append(":100:10000\n");
        }
        LabelStats query = summary(rows.toString()).label("query");
        assertEquals(0.5, query.targetRate(), 1e-9);
        assertEquals(1.0, query.achievedRatio(), 1e-9);
        String text = SummaryText.render(summary(rows.toString()));
        assertTrue(text.contains("Rate          [target, achieved, ratio]         30.00/min, 30.00/min, 100.00%"), text);
    }

    @Test
    void theErrorSetCountsFailedRequestsNotThePointsTheyCarried() throws IOException {
        // two failed batch rows of two requests, each request carrying 25 points
        Summary s = summary(""
                + "1000,5,write,ConnectException,Connection refused,false,1000;0:4000:::25;100:4100:::25\n"
                + "1010,5,write,ConnectException,Connection refused,false,1010;0:4000:::25;100:4100:::25\n");
        LabelStats write = s.label("write");
        assertEquals(100, write.requests(), "the points, as the Requests line counts them");
        assertEquals(Map.of("Connection refused", 4L), write.errors(), "four requests failed");
    }
}
