package org.dsload.recording;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.stream.Stream;

import org.apache.jmeter.rmi.RmiUtils;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's {@link RecordingStore}: the recordings and server gauges under its {@code dsload-recordings/} folder, in an
 * RMI registry of its own on port {@value RunProperties#RECORDING_PORT} (the registry port of jmeter-server plus
 * one unless set), with JMeter's server socket factory: over SSL it takes only clients that hold
 * the RMI keystore's key, as JMeter's own registry does. (JMeter's registry cannot hold it: a
 * registry loads what is bound into it with the JDK's class loader, which does not see plugins.)
 * Started once per jmeter-server, by the first test it runs without a run folder (its start instant, histograms
 * mode, server gauges); it serves until the JVM ends.
 */
final class RecordingFiles implements RecordingStore {
    private static final Logger log = LoggerFactory.getLogger(RecordingFiles.class);
    static final int MAX_READ = 4 * 1024 * 1024;
    private static RecordingFiles serving;
    /** Keeps the registry reachable from a GC root for as long as it serves. */
    private static Registry registry;

    private final Path base;

    private RecordingFiles(Path base) {
        this.base = base;
    }

    /** Serves the recordings under {@code base} ({@code <base>/<run id>/histograms/...}) unless it does already. */
    static synchronized void serve(Path base) {
        if (serving != null) {
            return;
        }
        int port = port();
        try {
            boolean ssl = !JMeterUtils.getPropDefault("server.rmi.ssl.disable", false);
            RecordingSockets client = new RecordingSockets(ssl);
            RMIServerSocketFactory server = ssl ? RmiUtils.createServerSocketFactory() : null;
            RecordingFiles files = new RecordingFiles(base.toAbsolutePath());
            registry = LocateRegistry.createRegistry(port, client, server);
            RecordingStore stub = (RecordingStore) UnicastRemoteObject.exportObject(files, port, client, server);
            registry.rebind(NAME, stub);
            serving = files;
            log.info("dsload: recordings of this slave served on port {} ({}) for the runner to fetch", port,
                    ssl ? "SSL, RMI keystore" : "no SSL: server.rmi.ssl.disable");
        } catch (RemoteException e) {
            log.error("dsload: cannot serve this slave's recordings on port {} ({}): the runner cannot fetch them; they stay "
                    + "in {}", port, e.getMessage(), base, e);
        }
    }

    private static int port() {
        String set = JMeterUtils.getPropDefault(RunProperties.RECORDING_PORT, "").trim();
        if (!set.isEmpty()) {
            return Integer.parseInt(set);
        }
        return JMeterUtils.getPropDefault("server_port", RmiUtils.getRmiRegistryPort()) + 1;
    }

    /** {@code <base>/<run id>}: the recordings ({@code histograms/}) and the server gauges of that run. */
    private Path runFolder(String runId) throws RemoteException {
        if (runId == null || !runId.matches("[A-Za-z0-9._-]+") || runId.startsWith(".")) {
            throw new RemoteException("not a run id: " + runId);
        }
        return base.resolve(runId);
    }

    @Override
    public List<String> files(String runId) throws RemoteException {
        Path folder = runFolder(runId);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.filter(Files::isRegularFile).map(p -> folder.relativize(p).toString())
                    .filter(p -> !p.endsWith(".tmp")).sorted().toList();
        } catch (IOException e) {
            throw new RemoteException("cannot list " + folder + ": " + e.getMessage());
        }
    }

    @Override
    public byte[] read(String runId, String path, long offset, int length) throws RemoteException {
        if (!files(runId).contains(path)) {
            throw new RemoteException("no file " + path + " in the recording of run " + runId);
        }
        Path file = runFolder(runId).resolve(path);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long size = f.length();
            int n = (int) Math.max(0, Math.min(Math.min(length, MAX_READ), size - offset));
            byte[] data = new byte[n];
            f.seek(offset);
            f.readFully(data);
            return data;
        } catch (IOException e) {
            throw new RemoteException("cannot read " + file + ": " + e.getMessage());
        }
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long startReady(String runId) throws RemoteException {
        runFolder(runId);
        return StartGate.readyAt(runId);
    }

    @Override
    public void startAt(String runId, long instant) throws RemoteException {
        runFolder(runId);
        StartGate.give(runId, instant);
    }
}
