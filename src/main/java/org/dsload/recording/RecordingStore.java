package org.dsload.recording;

import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.List;

/**
 * What a jmeter-server without a run folder offers the runner: at a run's start, the handshake that
 * starts its threads at the run's one instant ({@link StartInstant}); after the run, the files of its
 * recording of that run, to copy into the run folder, and its clock, to line its intervals up with
 * the other engines'. Bound as {@value #NAME} in an RMI registry of its own on the
 * slave (see {@link RecordingFiles}), behind the same keystore as JMeter's RMI.
 */
public interface RecordingStore extends Remote {
    String NAME = "dsload-recording";

    /** The files of a run's recording, as paths relative to its folder ({@code histograms/<engine>/...}). */
    List<String> files(String runId) throws RemoteException;

    /** Up to {@code length} bytes of a file the listing named, from {@code offset}; empty at its end. */
    byte[] read(String runId, String path, long offset, int length) throws RemoteException;

    /** The slave's clock, in epoch milliseconds. */
    long currentTimeMillis() throws RemoteException;

    /** When (the slave's clock, epoch ms) its engine became ready to start the run's threads; -1 while not. */
    long startReady(String runId) throws RemoteException;

    /** The instant, in the slave's clock (epoch ms), at which its engine starts the run's threads. */
    void startAt(String runId, long instant) throws RemoteException;
}
