package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The results file of a run, given the file itself or the folder {@code dsload run} made: there the
 * results file is {@code <plan>.jtl}, the plan named in the folder's {@code run.properties}, or the one
 * {@code .jtl} of the folder. In histograms mode the same file holds the aggregate rows, and
 * {@link Summary#of(Path)} reads the engines' interval logs from its folder; so both recording modes
 * are found alike.
 */
public final class RunResults {
    private static final String RECORD = "run.properties";

    private RunResults() {
    }

    /** The results file of {@code fileOrRunDir}; an IOException naming what is missing when there is none. */
    public static Path find(Path fileOrRunDir) throws IOException {
        if (Files.isRegularFile(fileOrRunDir)) {
            return fileOrRunDir;
        }
        if (!Files.isDirectory(fileOrRunDir)) {
            throw new IOException("no results file at " + fileOrRunDir + ", nor a run folder");
        }
        Path record = fileOrRunDir.resolve(RECORD);
        if (Files.isRegularFile(record)) {
            for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
                if (line.startsWith("plan=")) {
                    String plan = Path.of(line.substring("plan=".length())).getFileName().toString();
                    Path jtl = fileOrRunDir.resolve(plan.replaceFirst("\\.jmx$", "") + ".jtl");
                    if (Files.isRegularFile(jtl)) {
                        return jtl;
                    }
                }
            }
        }
        List<Path> jtls;
        try (Stream<Path> files = Files.list(fileOrRunDir)) {
            jtls = files.filter(f -> f.getFileName().toString().endsWith(".jtl") && Files.isRegularFile(f)).sorted()
                    .toList();
        }
        if (jtls.size() == 1) {
            return jtls.get(0);
        }
        throw new IOException(jtls.isEmpty()
                ? "no results in " + fileOrRunDir + ": a run folder holds the .jtl its run wrote (the run made none?)"
                : "several results files in " + fileOrRunDir + " (" + String.join(", ",
                        jtls.stream().map(p -> p.getFileName().toString()).toList()) + "): name one");
    }

    /** The name a run goes by in reports: its results file's name without {@code .jtl} or {@code .csv}. */
    public static String name(Path jtl) {
        return jtl.getFileName().toString().replaceFirst("\\.(jtl|csv)$", "");
    }
}
