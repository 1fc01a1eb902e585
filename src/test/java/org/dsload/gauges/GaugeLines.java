package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.dsload.report.Summary;

/**
 * A store's gauge lines as a run leaves them (one per server and second), written into a run
 * folder with what the samplers sent, for the store's summary section to read.
 */
public final class GaugeLines {
    private final GaugeFile file;
    private final List<String> lines = new ArrayList<>();

    public GaugeLines(GaugeFile file) {
        this.file = file;
    }

    /** An answered reading of the given columns; the others are empty. */
    public void reading(long millis, String node, Map<String, ?> values) {
        List<String> cells = new ArrayList<>(List.of(Long.toString(millis), node, GaugeFile.OK));
        for (String column : file.columns()) {
            Object v = values.get(column);
            cells.add(v == null ? "" : v.toString());
        }
        cells.add("");
        lines.add(String.join("\t", cells));
    }

    /**
     * The section's text from these lines.
     *
     * @param sent the samplers' counts, {@code name\tcount} lines
     */
    public String render(Path run, ServerGaugeSection section, String sent) throws IOException {
        return render(run, section, sent, null);
    }

    /** As {@link #render(Path, ServerGaugeSection, String)}, with the run's results. */
    public String render(Path run, ServerGaugeSection section, String sent, Summary summary) throws IOException {
        Files.writeString(run.resolve(file.name()), file.header() + "\n" + String.join("\n", lines) + "\n");
        Files.writeString(run.resolve(file.countsName()), "name\tcount\n" + sent);
        return section.render(run, summary).orElseThrow();
    }
}
