package org.dsload.kairosdb.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.dsload.report.RunFiles;

/**
 * Failures an element found in a run that its samples do not show, left for the runner in the
 * file {@value #FILE} of the run folder (each slave's folder in a distributed run). A line is
 * {@code failed<TAB><source><TAB><engine><TAB><reason>}, in UTF-8; the run failed when the file
 * holds such a line. No file, or no line, means no element found such a failure.
 */
public final class RunVerdict {
    public static final String FILE = "run-verdict";
    static final String FAILED = "failed";

    private RunVerdict() {
    }

    /** Records that the run failed, for {@code reason}, as found by {@code source} on {@code engine}. */
    public static void fail(Path runDir, String source, String engine, String reason) throws IOException {
        Files.createDirectories(runDir);
        String line = String.join("\t", FAILED, oneLine(source), oneLine(engine), oneLine(reason)) + "\n";
        synchronized (RunVerdict.class) {
            Files.writeString(runDir.resolve(FILE), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    /** The reasons of every failure recorded in the run folder and its slaves' folders, as "engine: source: reason". */
    public static List<String> failures(Path runDir) throws IOException {
        List<String> failures = new ArrayList<>();
        for (Path file : RunFiles.find(runDir, FILE)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", 4);
                if (f.length == 4 && f[0].equals(FAILED)) {
                    failures.add(f[2] + ": " + f[1] + ": " + f[3]);
                }
            }
        }
        return failures;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\t\\r\\n]+", " ");
    }
}
