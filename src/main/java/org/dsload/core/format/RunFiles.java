package org.dsload.core.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where elements leave files for a run: the run folder itself (a local run, or the master of a
 * distributed one), and each local slave's own folder {@code slaves/<address>_<port>/}, which the
 * runner gives a slave as its {@code dsload.run_dir}.
 */
public final class RunFiles {
    static final String SLAVES = "slaves";
    /**
     * In a local slave's folder: the instant (epoch ms) the runner gives every engine to start its
     * threads at, written once every slave is {@link #START_READY}.
     */
    public static final String START_AT = "start-at";
    /** In a local slave's folder: the slave has started every element and waits for {@link #START_AT}. */
    public static final String START_READY = "start-ready";
    /** In a local slave's folder: when (epoch ms) the slave let its thread groups start. */
    public static final String THREADS_STARTED = "threads-started";

    private RunFiles() {
    }

    /**
     * The address ({@code host:port}) of the slave whose folder holds {@code file}, found by
     * {@link #find}; null for a file of the run folder itself.
     */
    public static String slaveOf(Path runDir, Path file) {
        Path relative = runDir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize());
        if (relative.getNameCount() < 3 || !relative.getName(0).toString().equals(SLAVES)) {
            return null;
        }
        String folder = relative.getName(1).toString();
        int underscore = folder.lastIndexOf('_');
        return underscore < 0 ? null : folder.substring(0, underscore) + ":" + folder.substring(underscore + 1);
    }

    /** The folder of a slave's files in a run folder: {@code slaves/<host>_<port>}. */
    public static Path slaveFolder(Path runDir, String host, int port) {
        return runDir.resolve(SLAVES).resolve(host + "_" + port);
    }

    /** Every existing {@code <folder>/<relative>} among the run folder and the slaves' folders, run folder first. */
    public static List<Path> find(Path runDir, String relative) throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path folder : folders(runDir)) {
            Path candidate = folder.resolve(relative);
            if (Files.exists(candidate)) {
                found.add(candidate);
            }
        }
        return found;
    }

    /** The run folder, then each slave's folder in it, in name order. */
    public static List<Path> folders(Path runDir) throws IOException {
        List<Path> folders = new ArrayList<>(List.of(runDir));
        Path slaves = runDir.resolve(SLAVES);
        if (Files.isDirectory(slaves)) {
            try (Stream<Path> dirs = Files.list(slaves)) {
                folders.addAll(dirs.filter(Files::isDirectory).sorted().toList());
            }
        }
        return folders;
    }
}
