package org.dsload.gauges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

import org.dsload.redis.report.RedisServerSection;
import org.dsload.report.RunCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chart per store whose gauges the run recorded, beside the client's figures, found through ServiceLoader. */
class ServerChartTest {
    @TempDir
    Path run;

    private Path jtl(long start) throws IOException {
        StringBuilder text = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,success\n");
        for (int i = 0; i < 30; i++) {
            text.append(start + i * 100).append(",5,get,OK,OK,true\n");
        }
        Path jtl = run.resolve("r.jtl");
        Files.writeString(jtl, text);
        return jtl;
    }

    @Test
    void storesWithRecordedGaugesGetAChartOfPanelsAndOthersNone() throws IOException {
        long start = 1_700_000_000_000L;
        StringBuilder redis = new StringBuilder(RedisServerSection.FILE.header()).append('\n');
        for (int s = 0; s < 4; s++) {
            redis.append(start + s * 1000).append("\tr:1\tok");
            for (String column : RedisServerSection.FILE.columns()) {
                redis.append('\t').append(column.equals("total_commands_processed") ? Integer.toString(s * 100) : "1");
            }
            redis.append("\t\n");
        }
        Files.writeString(run.resolve(RedisServerSection.NAME), redis);
        Files.writeString(run.resolve("zk-mntr.tsv"), "epoch_ms\tserver\tzk_server_state\tzk_outstanding_requests\n"
                + start + "\tz:1\tstandalone\t3\n" + (start + 1000) + "\tz:1\tunreachable\t\n");

        List<Path> written = RunCharts.write(jtl(start), run, run);

        Path redisChart = run.resolve(RedisServerSection.CHART.png());
        assertTrue(written.contains(redisChart), written.toString());
        BufferedImage image = ImageIO.read(redisChart.toFile());
        assertEquals(5 * 300, image.getHeight(), "throughput, latency and three panels of gauges");
        assertTrue(written.contains(run.resolve("chart-zookeeper-server.png")), written.toString());
        assertTrue(Files.notExists(run.resolve("chart-cassandra-server.png")));
    }
}
