package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.dsload.cassandra.report.CassandraServerSection;
import org.dsload.influxdb.report.InfluxServerSection;
import org.dsload.kairosdb.report.KairosServerSection;
import org.dsload.kairosdb.report.WriteCapacitySection;
import org.dsload.redis.report.RedisServerSection;
import org.dsload.zookeeper.report.CapacitySection;
import org.dsload.zookeeper.report.ServerGaugesSection;
import org.dsload.zookeeper.report.ZkLatenciesSection;

/** The summary of a run: the results file's figures, then every section the run has material for. */
public final class RunReport {
    /** Sections in the order they are printed. */
    static final List<RunSection> SECTIONS = List.of(new YcsbSection(), new ZkLatenciesSection(),
            new ServerGaugesSection(), new CapacitySection(), new WriteCapacitySection(), new FaultPhasesSection(),
            new SlavesSection(), new GeneratorSection(),
            new RedisServerSection(), new CassandraServerSection(), new KairosServerSection(), new InfluxServerSection());

    private RunReport() {
    }

    public static String render(Path runDir, Summary summary) throws IOException {
        StringBuilder text = new StringBuilder(SummaryText.render(summary));
        for (RunSection section : SECTIONS) {
            Optional<String> part = section.render(runDir, summary);
            if (part.isPresent() && !part.get().isBlank()) {
                text.append('\n').append(part.get());
                if (!part.get().endsWith("\n")) {
                    text.append('\n');
                }
            }
        }
        return text.toString();
    }
}
