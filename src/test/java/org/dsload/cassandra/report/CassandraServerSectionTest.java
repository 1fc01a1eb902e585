package org.dsload.cassandra.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

import org.dsload.gauges.GaugeLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Cassandra section from the files a run leaves (one line per node per second). */
class CassandraServerSectionTest {
    @TempDir
    Path run;

    private final GaugeLines lines = new GaugeLines(CassandraServerSection.FILE);

    private String render(String sent) throws IOException {
        return lines.render(run, new CassandraServerSection(), sent);
    }

    @Test
    void readsAreTheCoordinatorsReadsAndRangeReadsSummedOverTheNodesAndWritesTheirWrites() throws IOException {
        lines.reading(1000, "n1:9042", Map.of("coordinator_reads", 10, "coordinator_scans", 1, "coordinator_writes", 5));
        lines.reading(1000, "n2:9042", Map.of("coordinator_reads", 0, "coordinator_scans", 0, "coordinator_writes", 0));
        lines.reading(3000, "n1:9042", Map.of("coordinator_reads", 40, "coordinator_scans", 3, "coordinator_writes", 25));
        lines.reading(3000, "n2:9042", Map.of("coordinator_reads", 18, "coordinator_scans", 0, "coordinator_writes", 9));
        String text = render("reads\t50\nwrites\t30\n");
        assertTrue(text.startsWith("== Cassandra server gauges"), text);
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 50, 50 (match) reads"), text);
        assertTrue(text.contains("Cross-check [dsload reported, server counted] 30, 29 (differ by 1) writes"), text);
    }

    @Test
    void theLocalReadAndWriteP99AreShownBesideTheCoordinators() throws IOException {
        lines.reading(1000, "n1:9042", Map.of("local_reads_p99_ms", 0.5, "local_writes_p99_ms", 0.25));
        lines.reading(2000, "n1:9042", Map.of("local_reads_p99_ms", 2.5, "local_writes_p99_ms", 0.75));
        String text = render("");
        assertTrue(text.contains("local read p99 ms") && text.contains("local write p99 ms"), text);
        assertTrue(Pattern.compile("\\s0\\.50-2\\.50\\s+0\\.25-0\\.75\\n").matcher(text).find(), text);
    }
}
