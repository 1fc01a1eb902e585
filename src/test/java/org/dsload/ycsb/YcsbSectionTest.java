package org.dsload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YcsbSectionTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,SampleCount,"
            + "ErrorCount,Hostname";

    @TempDir
    Path dir;

    private static String row(long start, long elapsed, String label, boolean ok) {
        return start + "," + elapsed + "," + label + "," + (ok ? "OK" : "ReadTimeoutException") + ",m,t 1-1,text," + ok
                + ",,10,10,1,1,," + elapsed + ",0,0,1," + (ok ? 0 : 1) + ",host";
    }

    @Test
    void runsWithoutAYcsbWorkloadHaveNoSection() throws IOException {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + "\n" + row(1000, 1, "GET", true) + "\n");
        assertEquals(Optional.empty(), new YcsbSection().render(dir, Summary.of(jtl)));
    }

    @Test
    void oneRowPerOperationWithS5sFiguresAndTheOverallRunPhase() throws IOException {
        Files.writeString(dir.resolve(YcsbSection.FILE), "workload=workloada\nrecordcount=1000\nfieldcount=10\n"
                + "fieldlength=100\nrequestdistribution=zipfian\nreadproportion=0.5\nupdateproportion=0.5\n"
                + "insertproportion=0.0\nreadconsistency=QUORUM\nwriteconsistency=QUORUM\n");
        Path jtl = dir.resolve("r.jtl");
        // load from 0 to 1 s, then the run phase from 10 s to 12 s (4 operations)
        Files.writeString(jtl, HEADER + "\n" + String.join("\n",
                row(0, 5, "LOAD", true), row(995, 5, "LOAD", true),
                row(10_000, 2, "READ", true), row(11_000, 4, "READ", false),
                row(10_500, 6, "UPDATE", true), row(11_996, 4, "UPDATE", true)) + "\n");
        String text = new YcsbSection().render(dir, Summary.of(jtl)).orElseThrow();
        assertTrue(text.startsWith("== YCSB ==\nworkloada, 1000 records of 10 fields x 100 chars, zipfian keys, "
                + "read 0.5 / update 0.5; consistency read QUORUM, write QUORUM\n"), text);
        // run phase: 10.000 s to 12.000 s, so 2 operations of a kind make 1.0 TPS
        assertTrue(text.contains("Operation            Operations         TPS        Avg        Min        Max        P50        P95        P99   Errors"), text);
        assertTrue(text.contains("READ                          2         1.0        3ms        2ms        4ms        2ms        4ms        4ms        1"), text);
        assertTrue(text.contains("UPDATE                        2         1.0        5ms        4ms        6ms        4ms        6ms        6ms        0"), text);
        assertTrue(text.contains("[OVERALL]                     4         2.0"), text);
        assertTrue(text.contains("LOAD                          2         2.0"), text);
    }

    @Test
    void anOperationWhoseEverySampleFailedKeepsItsRowWithItsErrors() throws IOException {
        Files.writeString(dir.resolve(YcsbSection.FILE), "workload=workloadb\nrecordcount=10\nfieldcount=10\n"
                + "fieldlength=100\nrequestdistribution=zipfian\nreadproportion=0.95\nupdateproportion=0.05\n"
                + "binding=cassandra\nreadconsistency=QUORUM\nwriteconsistency=QUORUM\n");
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + "\n" + String.join("\n",
                row(10_000, 2, "READ", true), row(10_500, 3, "READ", true),
                row(11_000, 7, "UPDATE", false), row(12_000, 9, "UPDATE", false)) + "\n");
        String text = new YcsbSection().render(dir, Summary.of(jtl)).orElseThrow();
        assertTrue(text.contains("UPDATE                        2         1.0        8ms        7ms        9ms        7ms        9ms        9ms        2"), text);
    }

    @Test
    void anOperationOfTheMixWithNoSampleAtAllShowsZeroSoItsAbsenceIsSeen() throws IOException {
        Files.writeString(dir.resolve(YcsbSection.FILE), "workload=workloada\nrecordcount=10\nfieldcount=10\n"
                + "fieldlength=100\nrequestdistribution=zipfian\nreadproportion=0.5\nupdateproportion=0.5\n"
                + "binding=redis\n");
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + "\n" + row(10_000, 2, "READ", true) + "\n");
        String text = new YcsbSection().render(dir, Summary.of(jtl)).orElseThrow();
        assertTrue(text.contains("read 0.5 / update 0.5; store redis\n"), text);
        assertTrue(text.contains("UPDATE                        0         0.0          -          -          -          -          -          -        0"), text);
    }

    @Test
    void aDistributedRunFindsTheSettingsInASlavesFolder() throws IOException {
        Path slave = Files.createDirectories(dir.resolve("slaves/127.0.0.2_1099"));
        Files.writeString(slave.resolve(YcsbSection.FILE), "workload=workloadc\nrecordcount=10\nfieldcount=10\n"
                + "fieldlength=100\nrequestdistribution=zipfian\nreadproportion=1.0\nbinding=redis\n");
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + "\n" + row(10_000, 2, "READ", true) + "\n");
        String text = new YcsbSection().render(dir, Summary.of(jtl)).orElseThrow();
        assertTrue(text.startsWith("== YCSB ==\nworkloadc, 10 records"), text);
    }
}
