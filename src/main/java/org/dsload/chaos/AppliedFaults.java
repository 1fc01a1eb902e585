package org.dsload.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The faults in force, kept on disk as one record file each until they are reverted: in the
 * run's folder ({@code <run>/applied-faults/}) when there is one, and always in a well-known
 * folder of the user ({@code ~/.dsload/applied-faults/}, or {@code DSLOAD_FAULTS_DIR}), so that
 * {@code dsload revert} finds them after a crash with or without the run's folder. A JVM shutdown
 * hook reverts what this process applied when the JVM ends before the schedule did.
 */
public final class AppliedFaults {
    public static final String FOLDER = "applied-faults";
    private static final String SUFFIX = ".fault";
    private static final String COPIES = "copies";
    private static final Map<String, Entry> IN_FORCE = new LinkedHashMap<>();
    private static Thread hook;

    private record Entry(FaultRecord record, List<Path> files) {
    }

    /** The outcome of one revert. */
    public record Reverted(FaultRecord record, boolean ok, String message) {
    }

    private AppliedFaults() {
    }

    /** Where the well-known copies go. */
    public static Path wellKnownDir() {
        String env = System.getenv("DSLOAD_FAULTS_DIR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".dsload", FOLDER);
    }

    /** Records an applied fault in the run folder (if any) and the well-known folder. */
    public static synchronized void add(FaultRecord record, Path runDir) throws IOException {
        List<Path> files = new ArrayList<>();
        if (runDir != null) {
            files.add(runDir.resolve(FOLDER).resolve(record.id() + SUFFIX));
        }
        files.add(wellKnownDir().resolve(record.id() + SUFFIX));
        record.put(COPIES, String.join(File.pathSeparator, files.stream().map(Path::toString).toList()));
        for (Path f : files) {
            record.write(f);
        }
        IN_FORCE.put(record.id(), new Entry(record, files));
        if (hook == null) {
            hook = new Thread(AppliedFaults::revertAllAtExit, "dsload-fault-revert-at-exit");
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /** Reverts one fault this process applied and forgets its record files (kept when the revert failed). */
    public static Reverted revert(String id) {
        Entry e;
        synchronized (AppliedFaults.class) {
            e = IN_FORCE.remove(id);
        }
        if (e == null) {
            return null;
        }
        Reverted r = revertRecord(e.record());
        if (r.ok()) {
            e.files().forEach(AppliedFaults::deleteQuietly);
        } else {
            // keep the files: 'dsload revert' can try again once the cause is fixed
            e.files().forEach(f -> markFailed(f, r.message()));
        }
        return r;
    }

    /** Reverts every fault this process still has in force, newest first. */
    public static List<Reverted> revertAll() {
        List<String> ids;
        synchronized (AppliedFaults.class) {
            ids = new ArrayList<>(IN_FORCE.keySet());
        }
        java.util.Collections.reverse(ids);
        List<Reverted> done = new ArrayList<>();
        for (String id : ids) {
            Reverted r = revert(id);
            if (r != null) {
                done.add(r);
            }
        }
        return done;
    }

    public static synchronized List<FaultRecord> inForce() {
        return IN_FORCE.values().stream().map(Entry::record).toList();
    }

    private static void revertAllAtExit() {
        for (Reverted r : revertAll()) {
            System.err.println("dsload: reverted " + r.record().label() + " at exit: " + (r.ok() ? "" : "FAILED: ")
                    + r.message()); // NOSONAR the JVM is ending: the console is all there is
        }
    }

    static Reverted revertRecord(FaultRecord record) {
        try {
            return new Reverted(record, true, Drivers.named(record.driver()).revert(record));
        } catch (Exception e) {
            return new Reverted(record, false, org.dsload.core.Errors.describe(e));
        }
    }

    /**
     * Reverts every fault recorded in a folder (a run's {@code applied-faults/}, or the well-known
     * one), oldest last, deleting each record that was reverted and the other copies of it.
     */
    public static List<Reverted> revertRecorded(Path dir) throws IOException {
        List<Reverted> done = new ArrayList<>();
        for (Path file : recorded(dir)) {
            FaultRecord record;
            try {
                record = FaultRecord.read(file);
            } catch (IOException e) {
                done.add(new Reverted(null, false, file + ": " + e.getMessage()));
                continue;
            }
            Reverted r = revertRecord(record);
            if (r.ok()) {
                deleteQuietly(file);
                copies(record).forEach(AppliedFaults::deleteQuietly);
            } else {
                markFailed(file, r.message());
            }
            done.add(r);
        }
        return done;
    }

    /** Record files in a folder, newest first. */
    public static List<Path> recorded(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(SUFFIX))
                    .sorted(Comparator.comparing((Path f) -> f.getFileName().toString()).reversed()).toList();
        }
    }

    private static List<Path> copies(FaultRecord record) {
        String copies = record.get(COPIES);
        if (copies == null || copies.isBlank()) {
            return List.of();
        }
        return Stream.of(copies.split(File.pathSeparator)).map(Path::of).toList();
    }

    private static void markFailed(Path file, String message) {
        try {
            if (Files.exists(file)) {
                FaultRecord r = FaultRecord.read(file);
                r.put("revert_failed", message);
                r.write(file);
            }
        } catch (IOException e) {
            // the record stays as it was; the failure is reported anyway
        }
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // a stale record is harmless: reverting it again finds nothing to do
        }
    }
}
