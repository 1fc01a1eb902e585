package org.dsload.run;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.dsload.core.format.RunFiles;
import org.dsload.core.format.RunProperties;
import org.dsload.recording.RecordingSockets;
import org.dsload.recording.RecordingStore;
import org.dsload.remote.RmiSecurity;
import org.dsload.remote.SlaveAddress;
import org.dsload.report.RecordingFormat;

/**
 * After a distributed run, copies what slaves without a run folder of their own (started by
 * {@code dsload slaves start}, or on other machines) recorded into the run folder, where the slaves
 * a run starts leave theirs: {@code slaves/<host>_<port>/}, with their recordings in
 * {@code histograms/<engine>/} and their server gauges and counts beside. Beside each engine's
 * recording goes how far its clock was from the runner's, measured around one call (half the round
 * trip is the error). In histograms mode a slave that cannot be reached is named on the console; the
 * summary then counts its requests from the results file's rows. In rows mode a slave that serves
 * nothing (it recorded no server gauges) is no news.
 *
 * <p>Runs in the runner's JVM: no JMeter classes.
 */
public final class RecordingGatherer {
    static final int CHUNK = 1024 * 1024;

    private RecordingGatherer() {
    }

    /**
     * @param properties the run's JMeter properties ({@value RunProperties#RECORDING_PORT} when the slaves were
     *                   given a recording port of their own)
     * @param histograms whether the run recorded histograms, which every slave then serves
     * @return the slaves whose recordings could not be fetched, with why (the port and the failure)
     */
    public static Map<SlaveAddress, String> gather(Path runDir, List<SlaveAddress> slaves, RmiSecurity security,
            Map<String, String> properties, boolean histograms, PrintStream console) {
        Map<SlaveAddress, String> failed = new LinkedHashMap<>();
        try {
            RecordingSockets.use(security.clientContext());
        } catch (IOException e) {
            console.println("dsload: cannot fetch the slaves' recordings: " + e.getMessage());
            slaves.forEach(s -> failed.put(s, "cannot fetch the slaves' recordings: " + e.getMessage()));
            return failed;
        }
        String runId = runDir.getFileName().toString();
        for (SlaveAddress slave : slaves) {
            if (Files.isDirectory(folderOf(runDir, slave))) {
                continue; // a slave the run started wrote into the run folder itself
            }
            int port = slave.recordingPort(properties.getOrDefault(RunProperties.RECORDING_PORT, ""));
            try {
                int copied = fetch(runDir, runId, slave, port, security.isSsl());
                if (copied > 0 || histograms) {
                    console.println("dsload: fetched " + copied + " files (recordings, server gauges) of slave " + slave);
                }
            } catch (java.rmi.ConnectException | java.rmi.NotBoundException e) {
                if (histograms) {
                    failed.put(slave, said(console, slave, port, runId, e));
                }
            } catch (Exception e) {
                failed.put(slave, said(console, slave, port, runId, e));
            }
        }
        return failed;
    }

    private static String said(PrintStream console, SlaveAddress slave, int port, String runId, Exception e) {
        String why = "its recording port " + port + ": " + e;
        console.println("dsload: could not fetch the recordings, server gauges and counts of slave " + slave + " from "
                + why + ". They stay on that machine under dsload-recordings/" + runId
                + "/; the summary counts its requests from the results file, without its latencies in histograms "
                + "mode, its server gauges or its counts.");
        return why;
    }

    private static Path folderOf(Path runDir, SlaveAddress slave) {
        return RunFiles.slaveFolder(runDir, slave.host(), slave.port());
    }

    static int fetch(Path runDir, String runId, SlaveAddress slave, int port, boolean ssl) throws Exception {
        Registry registry = LocateRegistry.getRegistry(slave.host(), port, new RecordingSockets(ssl));
        RecordingStore store = (RecordingStore) registry.lookup(RecordingStore.NAME);
        long before = System.currentTimeMillis();
        long theirs = store.currentTimeMillis();
        long after = System.currentTimeMillis();
        long offset = theirs - (before + after) / 2;
        Path into = folderOf(runDir, slave);
        // how far the slave's clock is from the runner's: the Slaves section's start skew takes it off
        Files.createDirectories(into);
        Files.writeString(into.resolve(RecordingFormat.CLOCK_OFFSET), offset + "\n", StandardCharsets.UTF_8);
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
