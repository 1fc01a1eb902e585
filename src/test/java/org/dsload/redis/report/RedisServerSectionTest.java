package org.dsload.redis.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.dsload.gauges.GaugeLines;
import org.dsload.gauges.SentCounts;
import org.dsload.report.Durations;
import org.dsload.report.SlaveRoster;
import org.dsload.report.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Redis section from the files a run leaves (one line per server per second). */
class RedisServerSectionTest {
    @TempDir
    Path run;

    private final GaugeLines lines = new GaugeLines(RedisServerSection.FILE);

    private void reading(long millis, String node, String role, long processed, String commandstats) {
        lines.reading(millis, node, Map.of("role", role, "total_commands_processed", processed,
                "commandstats", commandstats));
    }

    private String render(String sent) throws IOException {
        return lines.render(run, new RedisServerSection(), sent);
    }

    @Test
    void theCommandsSentAreComparedWithThePrimariesCallsAndReplicasAreLeftOut() throws IOException {
        reading(1000, "p:1", "master", 10, "get=5 set=7 ping=1");
        reading(1000, "r:2", "slave", 10, "set=7");
        reading(3000, "p:1", "master", 500, "get=105 set=207 ping=1 info=2");
        reading(3000, "r:2", "slave", 500, "set=207");
        String text = render("get\t100\nset\t200\n");
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 300, 300 (match) commands GET, SET"), text);
    }

    @Test
    void subcommandsOfRedis7CountForTheirCommand() throws IOException {
        reading(1000, "p:1", "master", 1, "config|get=1 config|set=0");
        reading(2000, "p:1", "master", 9, "config|get=5 config|set=2");
        String text = render("config\t6\n");
        assertTrue(text.contains("6, 6 (match) commands CONFIG"), text);
    }

    @Test
    void infoSentBySamplersIsCountedWithoutTheRecordersOwnReadings() throws IOException {
        // three readings: the recorder's first two INFO calls are in the last reading's count
        reading(1000, "p:1", "master", 1, "info=0");
        reading(2000, "p:1", "master", 5, "info=4");
        reading(3000, "p:1", "master", 9, "info=7");
        String text = render("info\t5\n");
        assertTrue(text.contains("5, 5 (match) commands INFO"), text);
    }

    @Test
    void aServerThatRestartedCannotBeCompared() throws IOException {
        reading(1000, "p:1", "master", 900, "get=800");
        reading(2000, "p:1", "master", 3, "get=2");
        String text = render("get\t10\n");
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 10, - (not counted: p:1 restarted "
                + "during the run)"), text);
    }

    @Test
    void aDifferenceIsSaid() throws IOException {
        reading(1000, "p:1", "master", 1, "get=0");
        reading(2000, "p:1", "master", 9, "get=12");
        String text = render("get\t10\n");
        assertTrue(text.contains("10, 12 (differ by 2)"), text);
    }

    @Test
    void aLostSlavesPartIsTakenFromTheResultsFileAfterItsLastCountAndTheLineNamesIt() throws IOException {
        // one server; two slaves sent GETs; 127.0.0.3 was killed at 5 s, its counts file last written at
        // 4 s (40 GETs), its rows in the results file going on to 5 s (10 more)
        reading(1000, "p:1", "master", 0, "get=0");
        reading(9000, "p:1", "master", 200, "get=153");
        Path survivor = Files.createDirectories(run.resolve("slaves/127.0.0.2_1099"));
        Path lost = Files.createDirectories(run.resolve("slaves/127.0.0.3_1099"));
        Files.writeString(survivor.resolve(RedisServerSection.FILE.countsName()), "name\tcount\nget\t100\n"
                + SentCounts.stamp(9000, List.of("GET profile")));
        Files.writeString(lost.resolve(RedisServerSection.FILE.countsName()), "name\tcount\nget\t40\n"
                + SentCounts.stamp(4000, List.of("GET profile")));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:1099", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:1099", SlaveRoster.State.LOST, 5500, "stopped answering"))).write(run);
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,success\n");
        for (int i = 0; i < 50; i++) { // a GET every 100 ms from 0.1 s to 5 s
            jtl.append(100 + i * 100).append(",1,GET profile,OK,OK,127.0.0.3:1099-read 1-1,true\n");
        }
        jtl.append("4500,1,other,OK,OK,127.0.0.3:1099-read 1-1,true\n"); // not a Redis sample
        for (int i = 0; i < 100; i++) {
            jtl.append(100 + i * 80).append(",1,GET profile,OK,OK,127.0.0.2:1099-read 1-1,true\n");
        }
        Path file = Files.writeString(run.resolve("run.jtl"), jtl);
        String text = lines.render(run, new RedisServerSection(), "", Summary.of(file));
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 150, 153 (differ by 3) commands GET "
                + "(commandstats calls of the primaries from test start to end); lost slave 127.0.0.3:1099: its last "
                + "count (" + Durations.timestamp(4000) + ") and the 10 requests the results file has of it after that"),
                text);
    }

    @Test
    void aServerReadLastByALostSlaveIsNotCountedFromThatReading() throws IOException {
        // each slave read a server of its own; the lost slave's server was not read after the load
        Path lost = Files.createDirectories(run.resolve("slaves/127.0.0.3_1099"));
        GaugeLines itsLines = new GaugeLines(RedisServerSection.FILE);
        itsLines.reading(1000, "q:2", Map.of("role", "master", "total_commands_processed", 0, "commandstats", "get=0"));
        itsLines.reading(4000, "q:2", Map.of("role", "master", "total_commands_processed", 90, "commandstats", "get=80"));
        itsLines.render(lost, new RedisServerSection(), "get\t80\n" + SentCounts.stamp(4000, List.of("GET profile")));
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.3:1099", SlaveRoster.State.LOST, 5500, "gone")))
                .write(run);
        reading(1000, "p:1", "master", 0, "get=0");
        reading(9000, "p:1", "master", 200, "get=100");
        String text = render("get\t100\n");
        assertTrue(text.contains("- (not counted: q:2 read last by lost slave 127.0.0.3:1099 at "
                + Durations.timestamp(4000) + ")"), text);
    }

    @Test
    void theCountsOfASlaveWhoseRecordingsCouldNotBeFetchedAreMissingNotDifferent() throws IOException {
        // two slaves sent GETs; the counts of 127.0.0.3 stayed on its machine (its recording port closed)
        reading(1000, "p:1", "master", 0, "get=0");
        reading(9000, "p:1", "master", 200, "get=180");
        new SlaveRoster(List.of(new SlaveRoster.Entry("127.0.0.2:1099", SlaveRoster.State.USED, 0, ""),
                new SlaveRoster.Entry("127.0.0.3:1099", SlaveRoster.State.UNFETCHED, 9500, "its recording port 1100: "
                        + "connect timed out"))).write(run);
        String text = render("get\t100\n");
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 100, - (not counted: the counts of slave "
                + "127.0.0.3:1099 are missing: its recordings could not be fetched after the run (see the Slaves "
                + "section)) commands GET"), text);
        assertFalse(text.contains("differ"), text);
    }
}
