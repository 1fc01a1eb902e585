package org.dsload.zookeeper.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.dsload.zookeeper.ZooKeeperGauges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperServerSectionTest {

    private static String line(long t, String server, String state, String znodes, String watches, String connections,
            String outstanding) {
        return t + "\t" + server + "\t" + state + "\t" + znodes + "\t" + watches + "\t0\t" + connections + "\t"
                + outstanding + "\t1000\t0.5\t12\t0\t10\t10\t30\t\n";
    }

    /** A line of a serving server with its packets received and per-namespace counters. */
    private static String counted(long t, String server, String state, long packets, String perNamespace) {
        return t + "\t" + server + "\t" + state + "\t5\t0\t0\t1\t0\t1000\t0.5\t12\t0\t" + packets + "\t10\t30\t"
                + perNamespace + "\n";
    }

    @Test
    void readsAreSummedOverTheServersAndWritesTakenFromTheMemberThatAppliedTheMost(@TempDir Path dir) throws Exception {
        String header = "epoch_ms\tserver\t" + String.join("\t", ZooKeeperGauges.KEYS) + "\n";
        Files.writeString(dir.resolve(ZooKeeperServerSection.FILE), header
                + counted(1, "a:2181", "leader", 10, "zookeeper/read=4 app/write=7")
                + counted(1, "b:2181", "follower", 10, "app/read=2 app/write=7")
                + counted(1, "c:2181", "follower", 10, "app/write=7")
                + counted(2, "a:2181", "leader", 20, "zookeeper/read=9 app/write=57 other/read=400")
                + counted(2, "b:2181", "follower", 300, "app/read=32 app/write=56")
                + counted(2, "c:2181", "follower", 200, "app/read=40 app/write=57"),
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ZooKeeperGauges.SENT_FILE), "name\tcount\nreads app\t70\nwrites app\t50\n",
                StandardCharsets.UTF_8);
        String out = new ZooKeeperServerSection().render(dir, null).orElseThrow();
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 70, 70 (match) reads that found their "
                + "znode in /app"), out);
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 50, 50 (match) writes applied in /app"), out);
        assertFalse(out.contains("retried"), out);
    }

    /** A line of a server that could not be reached. */
    private static String unreachable(long t, String server) {
        return state(t, server, ZooKeeperGauges.UNREACHABLE);
    }

    /** A line of a server with a state and no gauges: unreachable, or not serving requests. */
    private static String state(long t, String server, String state) {
        return t + "\t" + server + "\t" + state + "\t".repeat(ZooKeeperGauges.KEYS.size() - 1) + "\n";
    }

    private static String render(Path dir, String lines, String sent) throws Exception {
        String header = "epoch_ms\tserver\t" + String.join("\t", ZooKeeperGauges.KEYS) + "\n";
        Files.writeString(dir.resolve(ZooKeeperServerSection.FILE), header + lines, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(ZooKeeperGauges.SENT_FILE), "name\tcount\n" + sent, StandardCharsets.UTF_8);
        return new ZooKeeperServerSection().render(dir, null).orElseThrow();
    }

    @Test
    void aServerThatRestartedIsNotCountedAndRetriedRequestsAreNamed(@TempDir Path dir) throws Exception {
        // down between two polls, and back with its counters begun again (its old figures passed)
        String out = render(dir, counted(1_000, "a:2181", "standalone", 500, "app/read=1")
                + unreachable(2_000, "a:2181")
                + counted(3_000, "a:2181", "standalone", 20, "app/read=3"), "reads app\t2\nretried\t1\n");
        assertTrue(out.contains("2, - (not counted: a:2181 restarted during the run (its counters began again by "), out);
        assertTrue(out.contains("Note: 1 request was answered only after Curator retried it"), out);
    }

    @Test
    void aFollowerThatReSyncedIsCountedNotCalledRestarted(@TempDir Path dir) throws Exception {
        // an election: the follower served no requests for a moment, then its request counters began
        // again; its per-namespace counters, the process's, went on
        String out = render(dir, counted(1_000, "a:2181", "leader", 100, "app/read=0 app/write=10")
                + counted(1_000, "b:2181", "follower", 100, "app/read=5 app/write=10")
                + state(2_000, "b:2181", ZooKeeperGauges.NOT_SERVING)
                + counted(3_000, "b:2181", "follower", 7, "app/read=9 app/write=30")
                + counted(3_000, "a:2181", "leader", 300, "app/read=2 app/write=30"), "reads app\t6\nwrites app\t20\n");
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 6, 6 (match) reads"), out);
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 20, 20 (match) writes"), out);
        assertFalse(out.contains("restarted"), out);
    }

    @Test
    void anEnsembleDownAtTheEndIsNotCountedFromItsLastPollBeforeTheKill(@TempDir Path dir) throws Exception {
        String out = render(dir, counted(1_000, "a:2181", "leader", 10, "app/write=0")
                + counted(1_000, "b:2181", "follower", 10, "app/write=0")
                + counted(2_000, "a:2181", "leader", 900, "app/write=8843")
                + counted(2_000, "b:2181", "follower", 900, "app/write=8843")
                + unreachable(3_000, "a:2181") + unreachable(3_000, "b:2181")
                + unreachable(9_000, "a:2181") + unreachable(9_000, "b:2181"), "writes app\t9907\n");
        String since = org.dsload.report.Durations.timestamp(3_000);
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 9907, - (not counted: a:2181 down since "
                + since + ", b:2181 down since " + since + ") writes"), out);
        assertFalse(out.contains("8843"), out);
    }

    @Test
    void writesAreCountedFromAMemberThatServedTheWholeRunWhenAnotherWasKilled(@TempDir Path dir) throws Exception {
        String out = render(dir, counted(1_000, "a:2181", "leader", 10, "app/read=0 app/write=0")
                + counted(1_000, "b:2181", "follower", 10, "app/read=0 app/write=0")
                + counted(2_000, "b:2181", "follower", 90, "app/read=40 app/write=30")
                + counted(2_000, "a:2181", "leader", 90, "app/read=0 app/write=30")
                + unreachable(3_000, "b:2181")
                + counted(3_000, "a:2181", "leader", 200, "app/read=30 app/write=50"), "reads app\t75\nwrites app\t50\n");
        assertTrue(out.contains("75, - (not counted: b:2181 down since " + org.dsload.report.Durations.timestamp(3_000)
                + ") reads"), out);
        assertTrue(out.contains("Cross-check [dsload reported, server counted] 50, 50 (match) writes"), out);
    }

    @Test
    void printsEachServersRangesAndWarnsAboveThreeHundredOutstandingRequests(@TempDir Path dir) throws Exception {
        String header = "epoch_ms\tserver\t" + String.join("\t", ZooKeeperGauges.KEYS) + "\n";
        Files.writeString(dir.resolve(ZooKeeperServerSection.FILE), header
                + line(1, "10.0.0.1:2181", "leader", "5", "0", "3", "0")
                + line(1, "10.0.0.2:2181", "follower", "5", "0", "2", "0")
                + line(2, "10.0.0.1:2181", "leader", "100005", "7500", "303", "412")
                + "2\t10.0.0.2:2181\tunreachable" + "\t".repeat(ZooKeeperGauges.KEYS.size() - 1) + "\n",
                StandardCharsets.UTF_8);
        Optional<String> text = new ZooKeeperServerSection().render(dir, null);
        assertTrue(text.isPresent());
        String out = text.get();
        assertTrue(out.contains("10.0.0.1:2181          leader                2 5-100005         0-7500           3-303        0-412"), out);
        assertTrue(out.contains("10.0.0.2:2181          follower/unreachable 1x      2 5"), out);
        assertTrue(out.contains("Warning: outstanding requests reached 412 on 10.0.0.1:2181 (above 300"), out);
        assertEquals(1, out.split("Warning").length - 1, "no warning for the quiet server");
    }

    @Test
    void aRunWithoutGaugesHasNoSection(@TempDir Path dir) throws Exception {
        assertTrue(new ZooKeeperServerSection().render(dir, null).isEmpty());
    }

    @Test
    void aServerOutOfServiceIsShownWithWhenAndARangeBelowZeroReadsPlainly(@TempDir Path dir) throws Exception {
        String header = "epoch_ms\tserver\t" + String.join("\t", ZooKeeperGauges.KEYS) + "\n";
        String out = "\t".repeat(ZooKeeperGauges.KEYS.size() - 1) + "\n";
        long t = java.time.LocalDate.of(2026, 1, 5).atTime(10, 31, 2).atZone(java.time.ZoneId.systemDefault())
                .toInstant().toEpochMilli();
        Files.writeString(dir.resolve(ZooKeeperServerSection.FILE), header
                + line(t, "10.0.0.3:2181", "follower", "5", "0", "2", "-1")
                + (t + 1000) + "\t10.0.0.3:2181\tunreachable" + out
                + (t + 2000) + "\t10.0.0.3:2181\tunreachable" + out
                + (t + 3000) + "\t10.0.0.3:2181\tnot-serving" + out
                + line(t + 4000, "10.0.0.3:2181", "follower", "5", "0", "2", "1")
                + (t + 9000) + "\t10.0.0.3:2181\tunreachable" + out,
                StandardCharsets.UTF_8);
        String text = new ZooKeeperServerSection().render(dir, null).orElseThrow();
        assertTrue(text.contains("10.0.0.3:2181 was unreachable from 10:31:03 to 10:31:04 (2 polls)"), text);
        assertTrue(text.contains("10.0.0.3:2181 was not serving requests from 10:31:05 to 10:31:05 (1 poll)"), text);
        assertTrue(text.contains("10.0.0.3:2181 was unreachable from 10:31:11 to 10:31:11 (1 poll)"), text);
        assertTrue(text.contains(" -1 to 1 "), "outstanding requests from -1 to 1, not '-1-1': " + text);
    }
}
