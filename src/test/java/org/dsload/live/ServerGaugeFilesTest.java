package org.dsload.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.core.format.GaugeTable;
import org.dsload.core.format.RunFiles;
import org.dsload.gauges.GaugeFile;
import org.dsload.gauges.GaugeRecorder;
import org.dsload.gauges.GaugeSource;
import org.dsload.process.Deadline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/** The servers' gauges as the endpoint reads them from the gauge files a run leaves, while they are written. */
class ServerGaugeFilesTest {
    private static final GaugeFile REDIS = new GaugeFile("Redis", "redis-info.tsv", "redis-sent.tsv",
            List.of("role", "connected_clients", "used_memory"));
    private static final String ZK_HEADER = "epoch_ms\tserver\tzk_server_state\tzk_znode_count\n";

    @TempDir
    Path run;

    /** A Redis node whose client count goes up by one per reading, and whose memory it does not tell. */
    private static final class Growing implements GaugeSource {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public String name() {
            return "127.0.0.1:6379";
        }

        @Override
        public List<Reading> read(long now) {
            return List.of(new Reading(name(), now, Map.of("role", "master", "connected_clients",
                    Integer.toString(reads.incrementAndGet()))));
        }
    }

    /** The readings as {@code store server gauge} to value. */
    private static Map<String, Double> values(ServerGaugeFiles files) {
        Map<String, Double> values = new TreeMap<>();
        files.readings().forEach(r -> values.put(r.store() + " " + r.server() + " " + r.gauge(), r.value()));
        return values;
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void theRecordersOwnFileIsFollowedAsItGrowsWithTheNumbersOfTheServersThatAnswer() throws Exception {
        ServerGaugeFiles files = new ServerGaugeFiles(run, Duration.ZERO);
        assertEquals(Map.of(), values(files), "no gauge file yet");
        Growing up = new Growing();
        try (GaugeRecorder.Lease lease = GaugeRecorder.lease(REDIS, run, List.of(up), () -> Map.of("GET", 1L))) {
            assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 1.0), values(files),
                    "the first line: the role is no number, the memory not told");
            assertTrue(Deadline.await(() -> values(files).get("redis 127.0.0.1:6379 connected_clients") >= 3,
                    Duration.ofSeconds(20), Duration.ofMillis(50)),
                    "the lines the recorder appends each second are read: " + values(files) + " after " + up.reads + " readings");
        }
        double last = up.reads.get();
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", last), values(files),
                "the latest reading, the one taken when the lease closed; the counts file beside it is no gauge file");
    }

    @Test
    void appendedLinesAreReadOnceCompleteAndAFileThatAppearsLaterIsPickedUp() throws Exception {
        Path redis = run.resolve(REDIS.name());
        append(redis, REDIS.header() + "\n1000\t127.0.0.1:6379\tok\tmaster\t5\t1024\t\n");
        append(run.resolve("faults.tsv"), "epoch_ms\tfault\n1000\tfreeze\n");
        ServerGaugeFiles files = new ServerGaugeFiles(run, Duration.ZERO);
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 5.0, "redis 127.0.0.1:6379 used_memory", 1024.0),
                values(files));

        append(redis, "2000\t127.0.0.1:6379\tok\tmaster\t6\t20");
        assertEquals(5.0, values(files).get("redis 127.0.0.1:6379 connected_clients"), "a line being written waits");
        append(redis, "48\t\n");
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 6.0, "redis 127.0.0.1:6379 used_memory", 2048.0),
                values(files), "the line once complete");

        // a slave's folder that appears later, with ZooKeeper's file (a server column and no state column),
        // and the same Redis node as an older line of the slave's recorder
        Path slave = Files.createDirectories(RunFiles.slaveFolder(run, "127.0.0.2", 1099));
        append(slave.resolve("zk-mntr.tsv"), ZK_HEADER + "2500\t127.0.0.1:2181\tstandalone\t42\n");
        append(slave.resolve(REDIS.name()), REDIS.header() + "\n1500\t127.0.0.1:6379\tok\tmaster\t99\t1\t\n");
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 6.0, "redis 127.0.0.1:6379 used_memory", 2048.0,
                "zk 127.0.0.1:2181 zk_znode_count", 42.0), values(files), "one series per server: the newest line");

        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 6.0, "redis 127.0.0.1:6379 used_memory", 2048.0),
                values(new ServerGaugeFiles(run, false, Duration.ZERO)), "when the slaves send their lines, the run folder's alone");

        append(slave.resolve("zk-mntr.tsv"), "3500\t127.0.0.1:2181\tunreachable\tunreachable\n");
        append(redis, "3000\t127.0.0.1:6379\tunreachable\t\t\t\tconnection refused\n");
        assertEquals(Map.of(), values(files), "a server that does not answer has no reading");
    }

    @Test
    void theFilesAreReadAtMostOnceInTheInterval() throws Exception {
        Path redis = run.resolve(REDIS.name());
        append(redis, REDIS.header() + "\n1000\t127.0.0.1:6379\tok\tmaster\t5\t\t\n");
        ServerGaugeFiles files = new ServerGaugeFiles(run, Duration.ofHours(1));
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 5.0), values(files));
        append(redis, "2000\t127.0.0.1:6379\tok\tmaster\t6\t\t\n");
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 5.0), values(files), "the reading of the interval");
        assertEquals(Map.of(), values(new ServerGaugeFiles(run.resolve("none"), true)));
    }

    @Test
    void aFileFarAheadOfTheReadGivesItsLatestLineThoughTheReadBeginsMidLine() throws Exception {
        Path redis = run.resolve(REDIS.name());
        StringBuilder lines = new StringBuilder(REDIS.header()).append('\n');
        for (int second = 1; lines.length() <= 3 * ServerGaugeFiles.MOST_BYTES; second++) {
            lines.append(second * 1000L).append("\t127.0.0.1:6379\tok\tmaster\t").append(second).append("\t\t\n");
        }
        append(redis, lines.toString());
        int last = lines.toString().split("\n").length - 1;
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", (double) last),
                values(new ServerGaugeFiles(run, Duration.ZERO)));
    }

    @Test
    void theEndpointServesOneGaugePerServerAndGauge() throws Exception {
        append(run.resolve(REDIS.name()), REDIS.header() + "\n1000\t127.0.0.1:6379\tok\tmaster\t5\t\t\n"
                + "1000\t127.0.0.1:6380\tok\treplica\t7\t\t\n");
        LiveMetrics metrics = new LiveMetrics(null, new ServerGaugeFiles(run, Duration.ZERO));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith(LiveMetrics.SERVER_GAUGE + "{")).toList();
        assertEquals(List.of(
                "dsload_server_gauge{gauge=\"connected_clients\",server=\"127.0.0.1:6379\",store=\"redis\"} 5.0",
                "dsload_server_gauge{gauge=\"connected_clients\",server=\"127.0.0.1:6380\",store=\"redis\"} 7.0"), lines);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("# TYPE " + LiveMetrics.SERVER_GAUGE + " gauge"));
    }

    @Test
    void theStoreIsTheFirstWordOfTheFilesNameAndNoUserNameReachesTheServerLabel() {
        assertEquals("redis", ServerGaugeFiles.store("redis-info.tsv"));
        assertEquals("zk", ServerGaugeFiles.store("zk-mntr.tsv"));
        assertEquals("influxdb", ServerGaugeFiles.store("influxdb-vars.tsv"));
        assertEquals("db.example:8086", ServerGaugeFiles.server("admin@db.example:8086"));
        assertEquals("127.0.0.1:6379", ServerGaugeFiles.server("127.0.0.1:6379"));
    }
    @Test
    void aSlavesStreamedLinesAndTheFilesOfTheSameServerMakeOneSeriesTheNewestLineWinning() throws Exception {
        Path file = run.resolve(REDIS.name());
        append(file, REDIS.header() + "\n1000\tadmin@127.0.0.1:6379\tok\tmaster\t5\t\t\n");
        ServerGaugeFiles files = new ServerGaugeFiles(run, Duration.ZERO);
        LiveMetrics metrics = new LiveMetrics(null, files);
        SampleResult r = new SampleResult();
        r.setSampleLabel(GaugeTable.STREAM_PREFIX + REDIS.name());
        r.setSamplerData(REDIS.header() + "\n2000\t127.0.0.1:6379\tok\tmaster\t9\t\t\n2000\t127.0.0.1:6381\tok\tmaster\t4\t\t\n");
        LiveListener.count(metrics, "slave-127.0.0.9_1099", r.getSampleLabel(), r, "");
        assertEquals(Map.of("redis 127.0.0.1:6379 connected_clients", 9.0, "redis 127.0.0.1:6381 connected_clients", 4.0),
                values(files), "the slave's newer line, one series per server however its name came");
        files.streamed(REDIS.name(), REDIS.header() + "\n1500\t127.0.0.1:6379\tok\tmaster\t6\t\t\n");
        assertEquals(9.0, values(files).get("redis 127.0.0.1:6379 connected_clients"), "an older line loses");
        append(file, "3000\tadmin@127.0.0.1:6379\tok\tmaster\t11\t\t\n");
        assertEquals(11.0, values(files).get("redis 127.0.0.1:6379 connected_clients"), "the file's newer line wins");
        files.streamed(REDIS.name(), REDIS.header() + "\n4000\t127.0.0.1:6381\tunreachable\t\t\t\t\n");
        assertFalse(values(files).containsKey("redis 127.0.0.1:6381 connected_clients"),
                "a server that did not answer its last reading has no series");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        assertFalse(out.toString(StandardCharsets.UTF_8).contains(LiveMetrics.REQUESTS + "{"), "the lines are no request");
    }
}
