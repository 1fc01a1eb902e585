package org.dsload.zookeeper.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A phase's rate is of the calls that did what it names; a phase with none says so. */
class ZooKeeperLatenciesSectionTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,SampleCount,"
            + "ErrorCount,Hostname";

    @TempDir
    Path dir;

    private static void rows(StringBuilder out, String label, String code, boolean ok, int n, long from) {
        for (int i = 0; i < n; i++) {
            out.append(from + i * 10L).append(",2,").append(label).append(',').append(code).append(",m,t 1-1,text,")
                    .append(ok).append(",,0,0,1,1,,2,0,0,1,").append(ok ? 0 : 1).append(",h\n");
        }
    }

    private String render(StringBuilder rows) throws IOException {
        Path jtl = dir.resolve("r.jtl");
        Files.writeString(jtl, HEADER + "\n" + rows);
        return new ZooKeeperLatenciesSection().render(dir, Summary.of(jtl)).orElseThrow();
    }

    @Test
    void failedCallsAndAbsentNodesAreNotCountedAsDone() throws IOException {
        StringBuilder rows = new StringBuilder();
        rows(rows, "Create", "NOAUTH", false, 200, 1000);
        rows(rows, "Get", "OK", true, 99, 5000);
        rows(rows, "Get", "OK_RETRIED", true, 1, 5990);
        rows(rows, "Watch", "NONODE", true, 30, 7000);
        rows(rows, "Watch", "OK", true, 10, 7300);
        String text = render(rows);
        assertTrue(text.contains("created           0 permanent znodes: no call answered OK (200 calls: NOAUTH 200)"), text);
        // 100 gets from 5.000 s to 5.992 s
        assertTrue(text.contains("get             100           znodes in      992 ms (9.920000 ms/op 100.81/sec)"), text);
        assertTrue(text.matches("(?s).*watched          10\\s+znodes in\\s+392 ms \\(39\\.200000 ms/op 25\\.51/sec\\).*"
                + "; 30 of 40 calls not OK \\(NONODE 30, OK 10\\).*"), text);
    }
}
