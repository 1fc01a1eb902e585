package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.report.RunVerdict;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a run ended, judged from the files it left in its folder (results file, run-verdict lines). */
class RunJudgeTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,success\n";

    @TempDir
    Path dir;

    private RunJudge.Verdict judge(String rows, String signal) throws IOException {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + rows, StandardCharsets.UTF_8);
        return RunJudge.judge(new RunJudge.Facts(dir, Summary.of(jtl), null, false, 0, false, false, null, signal));
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
}
