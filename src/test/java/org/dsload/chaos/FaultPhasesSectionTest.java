package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.dsload.report.FaultWindows;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault phases of a results file in the shape a schedule writes it, with its event log beside it. */
class FaultPhasesSectionTest {

    @Test
    void phasesCountTheRequestsOfEachPhaseAndNameFaultsNeverApplied(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,success\n");
        long t0 = 1_000_000L;
        for (int i = 0; i < 30; i++) {
            long at = t0 + i * 1000L;
            boolean inFault = at >= t0 + 10_000 && at < t0 + 20_000;
            jtl.append(at).append(',').append(inFault ? 250 : 5).append(",READ,").append(inFault && i % 2 == 0 ? "DriverTimeoutException" : "OK")
                    .append(",m,").append(!(inFault && i % 2 == 0)).append('\n');
        }
        jtl.append(t0 + 9_990).append(",10,fault:delay:node3,APPLIED,delay 200ms,true\n");
        jtl.append(t0 + 19_999).append(",1,fault:delay:node3,REVERTED,none,true\n");
        Path file = dir.resolve("r.jtl");
        Files.writeString(file, jtl, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(FaultWindows.EVENT_LOG), (t0 + 29_000) + "\tskipped\t[fault:kill:node3]\t\tthe load ended\n",
                StandardCharsets.UTF_8);

        // "before" is as long as the window (9.999 s): the very first request falls outside it
        String text = new FaultPhasesSection().render(dir, Summary.of(file)).orElseThrow();
        assertTrue(text.matches("(?s).*#1 delay node3 +before +0\\.0 +10\\.0 +9 .*"), text);
        assertTrue(text.matches("(?s).*\\n +during +10\\.0 +20\\.0 +10 +0\\.5 +50\\.00%.*DriverTimeoutException 50\\.0%.*"), text);
        assertTrue(text.matches("(?s).*\\n +after +20\\.0 +29\\.0 +10 .*"), text);
        assertTrue(text.contains("NOT APPLIED: [fault:kill:node3] (the load ended)"), text);
        assertTrue(text.contains("Every applied fault was reverted."), text);
    }

    @Test
    void eachPhaseShowsTheMedianBesideTheTailSoADelayFaultReadsAtP50(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,success\n");
        long t0 = 1_000_000L;
        for (int i = 0; i < 30; i++) {
            long at = t0 + i * 1000L;
            boolean inFault = at >= t0 + 10_000 && at < t0 + 20_000;
            // during the delay: 201 ms to 210 ms, so p50 (nearest rank, the 5th of 10) is 205 ms and p95 is 210 ms
            jtl.append(at).append(',').append(inFault ? 191 + i : 5).append(",READ,OK,m,true\n");
        }
        jtl.append(t0 + 9_990).append(",10,fault:delay:node3,APPLIED,delay 200ms,true\n");
        jtl.append(t0 + 19_999).append(",1,fault:delay:node3,REVERTED,none,true\n");
        Path file = dir.resolve("r.jtl");
        Files.writeString(file, jtl, StandardCharsets.UTF_8);

        String text = new FaultPhasesSection().render(dir, Summary.of(file)).orElseThrow();
        assertTrue(text.matches("(?s).*fault +phase +from +to +requests +throughput/s +errors +p50 +p95 +p99 +max .*"), text);
        assertTrue(text.matches("(?s).*\\n +during +10\\.0 +20\\.0 +10 +1\\.0 +0\\.00% +205ms +210ms +210ms +210ms .*"), text);
        assertTrue(text.matches("(?s).*#1 delay node3 +before +0\\.0 +10\\.0 +9 +0\\.9 +0\\.00% +5ms +5ms +5ms +5ms .*"), text);
    }

    @Test
    void faultsAfterTheLoadGiveEmptyPhasesAndAnInvertedAfterAndSaySo(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,success\n");
        long t0 = 1_000_000L;
        for (int i = 0; i < 10; i++) {
            jtl.append(t0 + i * 1000L).append(",5,GET,OK,m,true\n");
        }
        // a schedule whose thread group ran after the load's: its window starts 10 s after the last request
        jtl.append(t0 + 20_000).append(",10,fault:pause:redis,APPLIED,paused,true\n");
        jtl.append(t0 + 25_000).append(",1,fault:pause:redis,REVERTED,resumed,true\n");
        Path file = dir.resolve("r.jtl");
        Files.writeString(file, jtl, StandardCharsets.UTF_8);

        String text = new FaultPhasesSection().render(dir, Summary.of(file)).orElseThrow();
        assertTrue(text.matches("(?s).*#1 pause redis +before +15\\.0 +20\\.0 +0 .*\\(empty\\)\n.*"), text);
        assertTrue(text.matches("(?s).*\\n +during +20\\.0 +25\\.0 +0 .*\\(empty\\)\n.*"), text);
        assertTrue(text.matches("(?s).*\\n +after +25\\.0 +9\\.0 +0 .*\\(inverted: ends before it starts\\)\n.*"), text);
        assertTrue(text.contains("Warning: no phase holds a request: the faults came before or after the load, not during it"),
                text);
        assertTrue(text.contains("Warning: 1 phase(s) end before they start (marked inverted)"), text);
    }
}
