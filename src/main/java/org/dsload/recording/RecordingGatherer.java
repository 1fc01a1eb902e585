package org.dsload.recording;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.util.List;

import org.dsload.remote.RmiSecurity;
import org.dsload.remote.SlaveAddress;
import org.dsload.report.RecordingFormat;

/**
 * After a distributed run in histograms mode, copies the recordings of slaves on other machines
 * into the run folder ({@code slaves/<host>_<port>/histograms/<engine>/}, where local slaves leave
 * theirs), and writes beside each engine's files how far its clock was from the runner's, measured
 * around one call (half the round trip is the error). A slave that cannot be reached is named on
 * the console; the summary then counts its requests from the results file's rows.
 *
 * <p>Runs in the runner's JVM: no JMeter classes.
 */
public final class RecordingGatherer {
    static final int CHUNK = 1024 * 1024;

    private RecordingGatherer() {
    }

    /**
     * @param properties the run's JMeter properties ({@value RecordingFiles#PORT_PROPERTY} when the slaves were
     *                   given a recording port of their own)
     */
    public static void gather(Path runDir, List<SlaveAddress> slaves, RmiSecurity security,
            java.util.Map<String, String> properties, PrintStream console) {
        try {
            RecordingSockets.use(security.clientContext());
        } catch (IOException e) {
            console.println("dsload: cannot fetch the slaves' recordings: " + e.getMessage());
            return;
        }
        String runId = runDir.getFileName().toString();
        for (SlaveAddress slave : slaves) {
            if (Files.isDirectory(folderOf(runDir, slave).resolve(RecordingFormat.FOLDER))) {
                continue; // a slave on this machine wrote into the run folder itself
            }
            int port = recordingPort(slave, properties.getOrDefault(RecordingFiles.PORT_PROPERTY, ""));
            try {
                int copied = fetch(runDir, runId, slave, port, security.isSsl());
                console.println("dsload: fetched " + copied + " recording files of slave " + slave);
            } catch (Exception e) {
                console.println("dsload: could not fetch the recordings of slave " + slave + " (port " + port + "): "
                        + e + ". They stay on that machine under dsload-recordings/" + runId
                        + "/; the summary counts its requests from the results file and has no latencies for them.");
            }
        }
    }

    /** The slave's recording port: {@code dsload.recording.port} if the run set it, else its registry port + 1. */
    private static int recordingPort(SlaveAddress slave, String set) {
        return set.isBlank() ? slave.port() + 1 : Integer.parseInt(set.trim());
    }

    private static Path folderOf(Path runDir, SlaveAddress slave) {
        return runDir.resolve("slaves").resolve(slave.host() + "_" + slave.port());
    }

    static int fetch(Path runDir, String runId, SlaveAddress slave, int port, boolean ssl) throws Exception {
        Registry registry = LocateRegistry.getRegistry(slave.host(), port, new RecordingSockets(ssl));
        RecordingStore store = (RecordingStore) registry.lookup(RecordingStore.NAME);
        long before = System.currentTimeMillis();
        long theirs = store.currentTimeMillis();
        long after = System.currentTimeMillis();
        long offset = theirs - (before + after) / 2;
        Path into = folderOf(runDir, slave);
        int copied = 0;
        for (String path : store.files(runId)) {
            Path target = into.resolve(path).normalize();
            if (!target.startsWith(into)) {
                throw new IOException("the slave named a file outside its folder: " + path);
            }
            Files.createDirectories(target.getParent());
            try (OutputStream out = Files.newOutputStream(target)) {
                long at = 0;
                byte[] chunk;
                while ((chunk = store.read(runId, path, at, CHUNK)).length > 0) {
                    out.write(chunk);
                    at += chunk.length;
                }
            }
            copied++;
        }
        Path engines = into.resolve(RecordingFormat.FOLDER);
        if (Files.isDirectory(engines)) {
            try (var dirs = Files.list(engines)) {
                for (Path engine : dirs.filter(Files::isDirectory).toList()) {
                    Files.writeString(engine.resolve(RecordingFormat.CLOCK_OFFSET), offset + "\n", StandardCharsets.UTF_8);
                }
            }
        }
        return copied;
    }
}
