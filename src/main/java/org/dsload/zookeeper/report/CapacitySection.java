package org.dsload.zookeeper.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.dsload.report.RunSection;
import org.dsload.report.Summary;

/** The steps of a capacity search and the capacity reached, as the Capacity Steps listener wrote them. */
public final class CapacitySection implements RunSection {
    public static final String FILE = "capacity.txt";

    @Override
    public Optional<String> render(Path runDir, Summary summary) throws IOException {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of("== Capacity steps ==\n" + Files.readString(file, StandardCharsets.UTF_8));
    }
}
