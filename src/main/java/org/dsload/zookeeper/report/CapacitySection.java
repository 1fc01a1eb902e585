package org.dsload.zookeeper.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.dsload.core.format.RunFiles;
import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/** The steps of a capacity search and the capacity reached, as the Capacity Steps listener wrote them. */
public final class CapacitySection implements RunSection {

    @Override
    public int order() {
        return 400;
    }
    public static final String FILE = "capacity.txt";

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        StringBuilder out = new StringBuilder();
        for (Path file : RunFiles.find(runDir, FILE)) {
            if (Files.isRegularFile(file)) {
                // in a distributed run each slave judged the steps of its own samples
                String engine = file.getParent().equals(runDir) ? "" : " (" + file.getParent().getFileName() + ")";
                out.append("== Capacity steps").append(engine).append(" ==\n")
                        .append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return out.length() == 0 ? Optional.empty() : Optional.of(out.toString());
    }
}
