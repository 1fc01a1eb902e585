package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.core.format.RunVerdict;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a run ended, judged from the files it left in its folder (results file, run-verdict lines). */
class RunJudgeTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success\n";

    @TempDir
    Path dir;

    private static final long T0 = 1_700_000_000_000L;

    private RunJudge.Verdict judge(String rows, String signal) throws IOException {
        return judge(rows, signal, false);
    }

    private RunJudge.Verdict judge(String rows, String signal, boolean faultsExpected) throws IOException {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + rows, StandardCharsets.UTF_8);
        return RunJudge.judge(new RunJudge.Facts(dir, Summary.of(jtl), null, false, 0, false, false, null, signal,
                faultsExpected));
    }

    /** One GET row per 100 ms from {@code fromSecond} (inclusive) to {@code toSecond} (exclusive) after T0. */
    private static String gets(int fromSecond, int toSecond, boolean success) {
        StringBuilder out = new StringBuilder();
        for (long t = T0 + fromSecond * 1000L; t < T0 + toSecond * 1000L; t += 100) {
            out.append(t).append(",1,GET,").append(success ? "OK,ok,true" : "ConnectException,cannot connect,false")
                    .append('\n');
        }
        return out.toString();
    }

    @Test
    void aJmeterThatDidNotStartIsToldByItsOwnWordsNotByALogItNeverWrote() throws IOException {
        Files.writeString(dir.resolve("jmeter.out"), "[0.000s][error][logging] Invalid tag 'x' in log selection.\n"
                + "Invalid -Xlog option '-Xlog:x', see error log for details.\n"
                + "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred.\n");
        RunJudge.Verdict v = RunJudge.judge(new RunJudge.Facts(dir, null, "JMeter wrote no results", false, 1, false,
                false, null, null, false));
        assertEquals(Ending.FAILED, v.ending());
        assertTrue(v.problem().contains("JMeter exited with code 1; see " + dir.resolve("jmeter.out")
                + " (JMeter wrote no log; it said: [0.000s][error][logging] Invalid tag 'x' in log selection. | "
                + "Invalid -Xlog option '-Xlog:x', see error log for details. | Error: Could not create the Java Virtual"
                + " Machine.)"), v.problem());
        // as the runner words a missing results file: the log, or JMeter's own words, named once
        String said = "JMeter wrote no results (" + dir.resolve("x.jtl") + "); see " + RunFolder.seeLog(dir);
        RunJudge.Verdict once = RunJudge.judge(new RunJudge.Facts(dir, null, said, false, 1, false, false, null, null,
                false));
        assertTrue(once.problem().contains("JMeter exited with code 1\n") || once.problem().endsWith("JMeter exited with code 1"),
                once.problem());
        assertEquals(1, once.problem().split("Could not create the Java Virtual Machine", -1).length - 1, once.problem());
        Files.writeString(dir.resolve("jmeter.log"), "2026-12-01 INFO started\n");
        RunJudge.Verdict logged = RunJudge.judge(new RunJudge.Facts(dir, null, "JMeter wrote no results", false, 1,
                false, false, null, null, false));
        assertTrue(logged.problem().contains("JMeter exited with code 1; see " + dir.resolve("jmeter.log")),
                logged.problem());
    }

    @Test
    void aRunWithSuccessesAndNoVerdictEndsWell() throws IOException {
        RunJudge.Verdict v = judge("1,1,GET,OK,ok,true\n2,1,GET,ERR,no,false\n", null);
        assertEquals(Ending.OK, v.ending());
        assertNull(v.problem());
    }

    @Test
    void everyFailedLineAnElementLeftFailsTheRunAndIsQuoted() throws IOException {
        RunVerdict.fail(dir, "kairosdb cross-check of 'k'", "master", "KairosDB holds 10 points, 20 were reported");
        RunVerdict.fail(dir.resolve("slaves/127.0.0.2_1099"), "kairosdb cross-check of 'k'", "slave-127.0.0.2_1099",
                "no answer");
        RunJudge.Verdict v = judge("1,1,GET,OK,ok,true\n", null);
        assertEquals(Ending.FAILED, v.ending());
        assertEquals("an element found the run failed:\n"
                + "  master: kairosdb cross-check of 'k': KairosDB holds 10 points, 20 were reported\n"
                + "  slave-127.0.0.2_1099: kairosdb cross-check of 'k': no answer", v.problem());
    }

    @Test
    void aRefusedConfigurationRefusesTheRunWithItsMessageAndTheSamplesItStopped() throws IOException {
        RunJudge.Verdict v = judge("1,0,SET,CONFIG,dsload Redis Connection 'r': cannot reach x,false\n"
                + "2,0,GET,CONFIG,dsload Redis Connection 'r': cannot reach x,false\n", null);
        assertEquals(Ending.REFUSED, v.ending());
        assertEquals("the run was refused at its start:\n  dsload Redis Connection 'r': cannot reach x (SET, GET)", v.problem());
    }

    @Test
    void aRefusedLineRefusesTheRunEvenWithoutSamples() throws IOException {
        RunVerdict.refuse(dir, "dsload Fault Schedule 'f'", "master", "its faults cannot overlap the load");
        assertEquals(Ending.REFUSED, judge("", null).ending());
    }

    @Test
    void aClientThatCouldNotStartRefusesTheRunOnceWithTheLabelsItsSamplesStopped() throws IOException {
        String refused = "dsload Redis Connection 'r': cannot reach h:1: refused. Check Hosts";
        RunVerdict.refuse(dir, "dsload", "master", refused);
        RunVerdict.refuse(dir, "dsload", "master", "dsload InfluxDB Connection 'i': cannot reach InfluxDB");
        RunJudge.Verdict v = judge("1,1,GET,CONFIG," + refused + ",false\n2,1,SET,CONFIG," + refused + ",false\n", null);
        assertEquals(Ending.REFUSED, v.ending());
        assertEquals("the run was refused at its start:\n"
                + "  master: dsload: dsload InfluxDB Connection 'i': cannot reach InfluxDB\n"
                + "  " + refused + " (GET, SET)", v.problem());
        // a JMeter sampler that failed before any dsload sampler: the client's reason is the run's
        RunJudge.Verdict http = judge("1,30,create database,0,Connection refused,false\n", null);
        assertEquals(Ending.REFUSED, http.ending());
        assertTrue(http.problem().contains("master: dsload: " + refused), http.problem());
    }

    @Test
    void noSuccessfulSampleIsItsOwnEndingAndASignalComesFirst() throws IOException {
        RunJudge.Verdict v = judge("1,1,GET,NIL,nil,false\n2,1,GET,NIL,nil,false\n", null);
        assertEquals(Ending.NO_SUCCESS, v.ending());
        assertTrue(v.problem().startsWith("no request succeeded: all 2 failed"), v.problem());
        assertEquals(Ending.INTERRUPTED, judge("1,1,GET,NIL,nil,false\n", "INT").ending());
    }

    @Test
    void aWarmUpThatSucceededDoesNotSaveAMeasuredWindowWhereNothingDid() throws IOException {
        RunJudge.Verdict v = judge("1,1,GET (warm-up),OK,ok,true\n2,1,GET,NIL,nil,false\n3,1,GET,NIL,nil,false\n", null);
        assertEquals(Ending.NO_SUCCESS, v.ending());
        assertTrue(v.problem().startsWith("no request of the measured window succeeded: all 2 failed"), v.problem());
        assertEquals(Ending.OK, judge("1,1,GET (warm-up),NIL,nil,false\n2,1,GET,OK,ok,true\n", null).ending());
    }

    @Test
    void aStoreThatStoppedAnsweringFailsTheRunSayingWhenAndForWhatShareOfIt() throws IOException {
        RunJudge.Verdict v = judge(gets(0, 10, true) + gets(10, 20, false) + gets(20, 40, true), null);
        assertEquals(Ending.STORE_FAILED, v.ending(), v.problem());
        assertTrue(v.problem().matches("(?s)the store failed during the run:\n  no request succeeded from "
                + "\\d\\d:\\d\\d:\\d\\d \\(10 s into the run\\) to \\d\\d:\\d\\d:\\d\\d \\(10 s, 25\\.1 % of the run\\): "
                + "all 100 failed \\(ConnectException 100\\)"), v.problem());
    }

    @Test
    void aCountTheDeadStoreCouldNotAnswerIsPartOfTheStoresFailureAndOtherwiseFailsTheRun() throws IOException {
        RunVerdict.uncounted(dir, "kairosdb cross-check of 'k'", "master", "730 points could not be counted back");
        RunJudge.Verdict dead = judge(gets(0, 10, true) + gets(10, 20, false), null);
        assertEquals(Ending.STORE_FAILED, dead.ending(), dead.problem());
        assertTrue(dead.problem().contains("730 points could not be counted back (not counted: the store was down)"),
                dead.problem());
        RunJudge.Verdict alive = judge(gets(0, 20, true), null);
        assertEquals(Ending.FAILED, alive.ending(), "a store that answered the load to its end must answer the count");
        assertTrue(alive.problem().contains("730 points could not be counted back"), alive.problem());
    }

    @Test
    void anOutageTheUserExpectedIsANoteAndTheRunEndsWell() throws IOException {
        RunJudge.Verdict v = judge(gets(0, 10, true) + gets(10, 30, false) + gets(30, 35, true), null, true);
        assertEquals(Ending.OK, v.ending());
        assertEquals(1, v.expected().size(), "the requests of an expected outage do not count as failed: " + v.expected());
        assertTrue(v.expected().get(0).endsWith("(expected: dsload.expect_faults)"), v.expected().toString());
    }

    @Test
    void anOutageThatBeganDuringAFaultOfTheScheduleIsExpected() throws IOException {
        String fault = (T0 + 9_900) + ",1,fault:kill:redis,APPLIED,killed,true\n"
                + (T0 + 25_000) + ",1,fault:kill:redis,REVERTED,started again,true\n";
        RunJudge.Verdict v = judge(gets(0, 10, true) + fault + gets(10, 25, false) + gets(25, 30, true), null);
        assertEquals(Ending.OK, v.ending(), v.problem());
        assertTrue(v.expected().get(0).endsWith("(expected: it began during the fault fault:kill:redis of the Fault "
                + "Schedule)"), v.expected().toString());
    }

    @Test
    void mostRequestsFailingWithoutAnOutageFailsTheRun() throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            rows.append(T0 + i * 50L).append(i % 3 == 0 ? ",1,GET,OK,ok,true\n" : ",1,GET,TIMEOUT,slow,false\n");
        }
        RunJudge.Verdict v = judge(rows.toString(), null);
        assertEquals(Ending.STORE_FAILED, v.ending());
        assertEquals("the store failed during the run:\n  most requests failed: 66 of 100 (66.0 %)", v.problem());
    }

    @Test
    void aBrokenStopConditionEndsTheRunAheadOfTheStoresFindingsWhichFollowIt() throws IOException {
        RunVerdict.limitsBroken(dir.resolve("slaves/127.0.0.2_1099"), "dsload", "slave-127.0.0.2_1099",
                "'p99>50ms' broken: p99 1.001s (since 10:00:01), so the test stopped early at 10:00:02 (dsload.stop_when)");
        RunJudge.Verdict v = judge(gets(0, 10, true) + gets(10, 20, false), null);
        assertEquals(Ending.LIMITS_BROKEN, v.ending(), v.problem());
        assertTrue(v.problem().startsWith("the run broke its limits and was stopped early:\n  slave-127.0.0.2_1099: "
                + "'p99>50ms' broken: p99 1.001s (since 10:00:01), so the test stopped early at 10:00:02 (dsload.stop_when)\n"
                + "  no request succeeded from "), v.problem());
        assertEquals("Run STOPPED, limits broken", RunEndText.heading(v.ending()));
    }

    @Test
    void anEngineThatGaveUpOnTheStoreSaysSoInTheVerdict() throws IOException {
        RunVerdict.gaveUp(dir, "dsload", "master", "no request succeeded for 5 s (since 10:00:00), so the test stopped early");
        RunJudge.Verdict v = judge(gets(0, 3, true) + gets(3, 8, false), null);
        assertEquals(Ending.STORE_FAILED, v.ending());
        assertTrue(v.problem().contains("\n  master: no request succeeded for 5 s (since 10:00:00), so the test stopped "
                + "early\n"), v.problem());
    }

    @Test
    void anOutageToTheEndLastsWhileTheThreadsStillRanAndNotThroughTheCountsAfterTheLoad() throws IOException {
        Path figures = Files.createDirectories(dir.resolve("generator/master"));
        long s0 = T0 / 1000;
        // the load ran 4 s and its last second failed; the engine then counted for 5 s more with no thread left
        Files.writeString(figures.resolve("jmeter.threads.csv"), "t,value\n" + s0 + ",3\n" + (s0 + 3) + ",3\n"
                + (s0 + 4) + ",0\n" + (s0 + 9) + ",0\n");
        RunJudge.Verdict done = judge(gets(0, 3, true) + gets(3, 4, false), null);
        assertEquals(Ending.OK, done.ending(), done.problem());
        // threads that back off from a dead store are still running: the outage lasts as long as they do
        Files.writeString(figures.resolve("jmeter.threads.csv"), "t,value\n" + s0 + ",3\n" + (s0 + 9) + ",3\n");
        RunJudge.Verdict dead = judge(gets(0, 3, true) + gets(3, 4, false), null);
        assertEquals(Ending.STORE_FAILED, dead.ending(), dead.problem());
        assertTrue(dead.problem().contains("to the end of the run at"), dead.problem());
    }

    @Test
    void arrivalsTheGeneratorMissedMeanTheLoadWasNotThePlans() throws IOException {
        Path figures = Files.createDirectories(dir.resolve("generator/master"));
        Files.writeString(figures.resolve("dsload.arrivals.missed.csv"), "t,count\n1,0\n2,300\n");
        RunJudge.Verdict v = judge(gets(0, 10, true), null);
        assertEquals(Ending.LOAD_INCOMPLETE, v.ending());
        assertTrue(v.onlyArrivalsUnsent(), "the one finding is the arrivals: the load ran, not at the plan's pace");
        assertEquals("the load did not run as planned:\n  scheduled arrivals went unsent: 300 of 300 (100.0 %) were not "
                + "sent: 0 dropped (too late, beyond a cap, or due while the store could not be reached), 300 missed "
                + "(taken by no thread before the schedule's end)", v.problem());
    }

    @Test
    void arrivalsTheWarmUpMissedAreNotTheMeasuredLoads() throws IOException {
        // a cold engine fell behind in its warm-up and left 300 of its arrivals untaken at the warm-up's end
        Path figures = Files.createDirectories(dir.resolve("generator/master"));
        Files.writeString(figures.resolve("dsload.arrivals.warm_up.missed.csv"), "t,count\n1,0\n2,300\n");
        Files.writeString(figures.resolve("dsload.arrivals.missed.csv"), "t,count\n1,0\n2,0\n");
        String warmUp = gets(0, 3, true).replace(",GET,", ",GET (warm-up),");
        RunJudge.Verdict v = judge(warmUp + gets(3, 10, true), null);
        assertEquals(Ending.OK, v.ending(), v.problem());
        // one measured arrival missed is judged, alone: the warm-up's 300 are no part of the count
        Files.writeString(figures.resolve("dsload.arrivals.missed.csv"), "t,count\n1,0\n2,1\n");
        RunJudge.Verdict measured = judge(warmUp + gets(3, 10, true), null);
        assertEquals(Ending.LOAD_INCOMPLETE, measured.ending());
        assertTrue(measured.problem().contains(": 1 of 1 (100.0 %) were not sent: 0 dropped"), measured.problem());
    }

    @Test
    void aLostSlaveMeansTheLoadWasNotThePlans() throws IOException {
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:1099", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:1099", SlaveRoster.State.LOST, T0 + 5000, "its process ended")))
                .write(dir);
        RunJudge.Verdict v = judge(gets(0, 10, true), null);
        assertEquals(Ending.LOAD_INCOMPLETE, v.ending());
        assertFalse(v.onlyArrivalsUnsent(), "a lost slave is more than a slipped schedule");
        assertTrue(v.problem().matches("(?s).*slave 127\\.0\\.0\\.3:1099 was lost at \\d\\d:\\d\\d:\\d\\d \\(5\\.0 s into the "
                + "run\\): its process ended; the plan's threads on it did not run to the end"), v.problem());
    }

    @Test
    void aSlaveWhoseRecordingsCouldNotBeFetchedFailsTheRunNamingItAndItsPort() throws IOException {
        SlaveRoster roster = new SlaveRoster(List.of(new SlaveRoster.Entry("10.213.1.3:1099", SlaveRoster.State.USED, 0,
                ""), new SlaveRoster.Entry("10.213.1.4:1099", SlaveRoster.State.UNFETCHED, T0 + 9000,
                "its recording port 1100: java.rmi.ConnectIOException: connect timed out")));
        roster.write(dir);
        String lost = String.join("; ", DistributedRun.unfetchedProblems(roster, "run-1"));
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + gets(0, 10, true), StandardCharsets.UTF_8);
        RunJudge.Verdict v = RunJudge.judge(new RunJudge.Facts(dir, Summary.of(jtl), null, false, 0, false, false, lost,
                null, false));
        assertEquals(Ending.FAILED, v.ending(), "a result of the run is lost: " + v.problem());
        assertEquals("the recordings of slave 10.213.1.4:1099 (server gauges, counts, histograms) could not be fetched "
                + "after the run (its recording port 1100: java.rmi.ConnectIOException: connect timed out): its counts "
                + "are missing from the cross-checks; they stay on that machine under dsload-recordings/run-1/",
                v.problem());
        assertEquals(List.of(), DistributedRun.unfetchedProblems(new SlaveRoster(List.of(roster.entries().get(0))),
                "run-1"), "a slave fetched is no finding");
    }
}
