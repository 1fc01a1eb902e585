package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.dsload.core.format.RunFiles;
import org.dsload.report.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GaugeLimitTest {
    @TempDir
    Path run;

    private void gaugeFile(Path dir, String name, String... lines) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), "epoch_ms\tnode\tstate\tconnected_clients\tused_memory\tnote\n"
                + String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }

    @Test
    void readsTheGaugeAndItsBound() {
        assertEquals(new GaugeLimit("zk_outstanding_requests", 100), GaugeLimit.parse("zk_outstanding_requests=100"));
        assertEquals(new GaugeLimit("connected_clients", 1_000_000), GaugeLimit.parse(" connected_clients <= 1_000_000 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GaugeLimit.parse("clients>5"));
        assertTrue(e.getMessage().startsWith("'clients>5' is not <gauge>=<number>"), e.getMessage());
    }

    @Test
    void thePeakOfTheWindowOverEveryServerAndEngineIsJudged() throws Exception {
        gaugeFile(run, "redis-info.tsv",
                "1000\t127.0.0.1:6379\tok\t900\t1\t",  // before the window: left out
                "2000\t127.0.0.1:6379\tok\t40\t1\t",
                "2000\t127.0.0.1:6380\tunreachable\t\t\tconnection refused");
        gaugeFile(RunFiles.slaveFolder(run, "127.0.0.2", 1099), "redis-info.tsv",
                "3000\t127.0.0.1:6380\tok\t55\t1\t");
        Limits.Verdict kept = new GaugeLimit("connected_clients", 60).judge(run, 1500);
        assertTrue(kept.held(), kept.text());
        assertEquals("server gauge connected_clients peaked at 55 (127.0.0.1:6380 in redis-info.tsv), within 60",
                kept.text());
        Limits.Verdict broken = new GaugeLimit("connected_clients", 50).judge(run, 1500);
        assertFalse(broken.held());
        assertTrue(broken.text().contains("is above the limit 50"), broken.text());
        assertTrue(new GaugeLimit("connected_clients", 50).judge(run, 0).text().contains("peaked at 900"),
                "from the run's start the early reading counts");
    }

    @Test
    void aGaugeNotRecordedBreaksTheLimitAndSaysWhatWas() throws Exception {
        Limits.Verdict none = new GaugeLimit("connected_clients", 5).judge(run, 0);
        assertFalse(none.held());
        assertTrue(none.text().contains("the run recorded no server gauges"), none.text());
        gaugeFile(run, "redis-info.tsv", "2000\t127.0.0.1:6379\tok\t40\t1\t");
        Files.writeString(run.resolve("other.tsv"), "a\tb\n1\t2\n", StandardCharsets.UTF_8);
        Limits.Verdict unknown = new GaugeLimit("clients", 5).judge(run, 0);
        assertFalse(unknown.held());
        assertEquals("server gauge clients cannot be judged: the gauges recorded are: connected_clients, used_memory",
                unknown.text());
    }

    @Test
    void zooKeepersMntrFileWithItsServerColumnIsJudgedToo() throws Exception {
        Files.writeString(run.resolve("zk-mntr.tsv"), "epoch_ms\tserver\tzk_server_state\tzk_outstanding_requests\n"
                + "2000\t127.0.0.1:2181\tstandalone\t12\n", StandardCharsets.UTF_8);
        Limits.Verdict kept = new GaugeLimit("zk_outstanding_requests", 100).judge(run, 0);
        assertEquals("server gauge zk_outstanding_requests peaked at 12 (127.0.0.1:2181 in zk-mntr.tsv), within 100",
                kept.text());
    }

    @Test
    void aFieldOfSeveralLimitsIsReadWholeOrRefusedWithItsProblem() {
        assertEquals(List.of(new GaugeLimit("zk_outstanding_requests", 100), new GaugeLimit("zk_ephemerals_count", 15)),
                GaugeLimit.parseAll(" zk_outstanding_requests=100, zk_ephemerals_count<=15 ", IllegalStateException::new));
        assertEquals(List.of(), GaugeLimit.parseAll("  ", IllegalStateException::new));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GaugeLimit.parseAll("a=1;clients>5", IllegalStateException::new));
        assertTrue(e.getMessage().startsWith("'clients>5' is not <gauge>=<number>"), e.getMessage());
    }
}
