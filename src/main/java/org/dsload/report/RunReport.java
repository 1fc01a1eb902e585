package org.dsload.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The summary of a run: the results file's figures, then every section the run has material for. */
public final class RunReport {

    private RunReport() {
    }

    /** The registered sections (META-INF/services), in the order they are printed. */
    static List<RunSection> sections() {
        List<RunSection> sections = new ArrayList<>();
        ServiceLoader.load(RunSection.class, RunSection.class.getClassLoader()).forEach(sections::add);
        sections.sort(Comparator.comparingInt(RunSection::order).thenComparing(s -> s.getClass().getName()));
        return sections;
    }

    public static String render(Path runDir, Summary summary) throws IOException {
        StringBuilder text = new StringBuilder(SummaryText.render(summary));
        for (RunSection section : sections()) {
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
