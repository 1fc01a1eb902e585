package org.dsload.core.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What elements found about a run that its samples do not show, left for the runner in the file
 * {@value #FILE} of the run folder (each slave's folder in a distributed run). A line is
 * {@code <kind><TAB><source><TAB><engine><TAB><reason>}, in UTF-8, where the kind is
 * {@value #FAILED} (the run ran, and failed: a cross-check that does not add up),
 * {@value #REFUSED} (an element refused to let the test run, so the load never started as
 * planned), {@value #GAVE_UP} (the engine stopped the test early: nothing had succeeded for too
 * long), {@value #LIMITS_BROKEN} (the engine stopped the test early: a stop condition of
 * {@link StopConditions} was broken) or {@value #UNCOUNTED} (a cross-check could not count: the
 * store answered none of its tries; a failure unless the store had stopped answering for good
 * during the run, which the runner finds in the results). No file, or no such line, means no
 * element found any.
 */
public final class RunVerdict {
    public static final String FILE = "run-verdict";
    static final String FAILED = "failed";
    static final String REFUSED = "refused";
    static final String GAVE_UP = "gave-up";
    static final String UNCOUNTED = "uncounted";
    static final String LIMITS_BROKEN = "limits-broken";

    private RunVerdict() {
    }

    /** Records that the run failed, for {@code reason}, as found by {@code source} on {@code engine}. */
    public static void fail(Path runDir, String source, String engine, String reason) throws IOException {
        append(runDir, FAILED, source, engine, reason);
    }

    /** Records that {@code source} refused the test at its start on {@code engine}, for {@code reason}. */
    public static void refuse(Path runDir, String source, String engine, String reason) throws IOException {
        append(runDir, REFUSED, source, engine, reason);
    }

    /** Records that {@code engine} stopped the test early because nothing succeeded, for {@code reason}. */
    public static void gaveUp(Path runDir, String source, String engine, String reason) throws IOException {
        append(runDir, GAVE_UP, source, engine, reason);
    }

    /** Records that {@code engine} stopped the test early because a stop condition was broken, for {@code reason}. */
    public static void limitsBroken(Path runDir, String source, String engine, String reason) throws IOException {
        append(runDir, LIMITS_BROKEN, source, engine, reason);
    }

    /** The reasons of every stop condition broken in the run folder and its slaves' folders, as "engine: reason". */
    public static List<String> brokenLimits(Path runDir) throws IOException {
        return lines(runDir, LIMITS_BROKEN).stream().map(l -> l.replaceFirst(": [^:]*: ", ": ")).toList();
    }

    private static void append(Path runDir, String kind, String source, String engine, String reason) throws IOException {
        Files.createDirectories(runDir);
        String line = String.join("\t", kind, oneLine(source), oneLine(engine), oneLine(reason)) + "\n";
        synchronized (RunVerdict.class) {
            Files.writeString(runDir.resolve(FILE), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    /** Records that {@code source} could not count its check because the store answered none of its tries. */
    public static void uncounted(Path runDir, String source, String engine, String reason) throws IOException {
        append(runDir, UNCOUNTED, source, engine, reason);
    }

    /** The reasons of every check the store left uncounted, as "engine: source: reason". */
    public static List<String> uncounted(Path runDir) throws IOException {
        return lines(runDir, UNCOUNTED);
    }

    /** The reasons of every failure recorded in the run folder and its slaves' folders, as "engine: source: reason". */
    public static List<String> failures(Path runDir) throws IOException {
        return lines(runDir, FAILED);
    }

    /** The reasons of every refusal recorded in the run folder and its slaves' folders, as "engine: source: reason". */
    public static List<String> refusals(Path runDir) throws IOException {
        return lines(runDir, REFUSED);
    }

    /** The reasons of every early stop recorded in the run folder and its slaves' folders, as "engine: reason". */
    public static List<String> earlyStops(Path runDir) throws IOException {
        return lines(runDir, GAVE_UP).stream().map(l -> l.replaceFirst(": [^:]*: ", ": ")).toList();
    }

    private static List<String> lines(Path runDir, String kind) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : RunFiles.find(runDir, FILE)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", 4);
                if (f.length == 4 && f[0].equals(kind)) {
                    found.add(f[2] + ": " + f[1] + ": " + f[3]);
                }
            }
        }
        return found;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\t\\r\\n]+", " ");
    }
}
