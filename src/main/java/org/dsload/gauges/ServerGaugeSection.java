package org.dsload.gauges;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.dsload.core.format.GaugeTable;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/**
 * A store's server-gauge section of the summary: its title, what the store's section shows of
 * its servers (tables, cross-check lines), then the servers that refused or were unreachable and
 * where the figures are. Empty when no engine recorded the store.
 */
public abstract class ServerGaugeSection implements RunSection {
    private final GaugeFile file;
    private final String title;
    private final String how;

    /**
     * @param title what follows {@code ==} ("Redis server gauges (INFO, every second; ...)")
     * @param how   how the gauges were read, for the closing line
     */
    protected ServerGaugeSection(GaugeFile file, String title, String how) {
        this.file = file;
        this.title = title;
        this.how = how;
    }

    @Override
    public final Optional<String> render(Path runDir, Summary summary) throws IOException {
        List<GaugeTable.Row> rows = GaugeRows.read(runDir, file);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Map<String, NodeGauges> nodes = NodeGauges.of(rows, GaugeRows.engines(runDir, file,
                EngineCounts.lostSlaves(runDir)));
        EngineCounts sent = EngineCounts.read(runDir, file, summary);
        StringBuilder body = new StringBuilder();
        body(sent.compared(nodes), sent.counts(), body);
        StringBuilder out = new StringBuilder("== ").append(title).append(" ==\n");
        out.append(sent.named(body.toString()));
        out.append(GaugeText.notes(nodes.values(), file, how));
        return Optional.of(out.toString());
    }

    /**
     * @param nodes the servers, in the order they were first read; a section may leave some out
     * @param sent  what the engines' samplers sent to the store, by name (a lost slave's part from the
     *              results file: {@link EngineCounts})
     */
    protected abstract void body(Map<String, NodeGauges> nodes, Map<String, Long> sent, StringBuilder out);
}
