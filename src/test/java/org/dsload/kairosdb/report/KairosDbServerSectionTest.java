package org.dsload.kairosdb.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.dsload.gauges.GaugeFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KairosDbServerSectionTest {
    @TempDir
    Path run;

    /** A reading with only the queries per second, or none at all. */
    private static String line(long millis, String node, String queries) {
        return line(millis, node, GaugeFile.OK, queries);
    }

    private static String line(long millis, String node, String state, String queries) {
        List<String> cells = new ArrayList<>(List.of(Long.toString(millis), node, state));
        for (String column : KairosDbServerSection.FILE.columns()) {
            cells.add(column.equals("requests") && queries != null ? queries : "");
        }
        cells.add("");
        return String.join("\t", cells) + "\n";
    }

    private String render(String lines) throws IOException {
        Files.writeString(run.resolve(KairosDbServerSection.NAME), KairosDbServerSection.FILE.header() + "\n" + lines);
        return new KairosDbServerSection().render(run, null).orElseThrow();
    }

    @Test
    void aKairosDbThatReportedNothingIsToldToTurnItsReporterOn() throws IOException {
        String text = render(line(1000, "KairosDB 127.0.0.1:8080", null) + line(2000, "KairosDB 127.0.0.1:8080", null));
        assertTrue(text.contains("KairosDB reported none of its own metrics during the run: turn its reporter on"), text);
    }

    @Test
    void onceAHostReportsTheEmptyFirstSecondIsLeftOut() throws IOException {
        String text = render(line(1000, "KairosDB 127.0.0.1:8080", null) + line(2000, "vm", "4") + line(3000, "vm", "9"));
        assertFalse(text.contains("KairosDB 127.0.0.1:8080"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("vm ") && l.contains(" 4-9 ")), text);
        assertFalse(text.contains("turn its reporter on"), text);
    }

    @Test
    void anAddressThatAnsweredNoPollIsANoteNotARow() throws IOException {
        String node = "KairosDB 127.0.0.1:8080";
        String text = render(line(1000, "vm", "4") + line(2000, node, GaugeFile.UNREACHABLE, null)
                + line(3000, node, GaugeFile.UNREACHABLE, null) + line(4000, "vm", "9"));
        assertTrue(text.lines().anyMatch(l -> l.startsWith("vm ") && l.contains(" 4-9 ")), text);
        assertFalse(text.lines().anyMatch(l -> l.startsWith(node)), text);
        assertTrue(text.contains("Unreachable: " + node + " did not answer 2 polls"), text);
    }
}
