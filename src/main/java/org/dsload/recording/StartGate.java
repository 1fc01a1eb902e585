package org.dsload.recording;

/**
 * The start handshake of a slave without a run folder, held in its JVM: {@link StartInstant} marks
 * the engine ready for a run and waits here; the runner reads the mark and gives the instant over
 * the slave's {@link RecordingStore}, in this slave's clock. One run at a time, as jmeter-server runs
 * one test at a time: a mark for another run replaces the last.
 */
final class StartGate {
    private static String run;
    private static long readyAt = -1;
    private static long instant = -1;

    private StartGate() {
    }

    /** The engine is ready to start the threads of {@code runId}, since {@code at} (epoch ms). */
    static synchronized void ready(String runId, long at) {
        run = runId;
        readyAt = at;
        instant = -1;
    }

    /** When the engine became ready for {@code runId} (epoch ms), or -1 while it is not. */
    static synchronized long readyAt(String runId) {
        return runId.equals(run) ? readyAt : -1;
    }

    /** The instant for {@code runId} in this slave's clock; ignored for a run the engine is not waiting in. */
    static synchronized void give(String runId, long at) {
        if (runId.equals(run) && readyAt >= 0) {
            instant = at;
            StartGate.class.notifyAll();
        }
    }

    /** The instant for {@code runId} once given, or -1 if none is by {@code deadline} (epoch ms). */
    static synchronized long await(String runId, long deadline) throws InterruptedException {
        long left;
        while (runId.equals(run) && instant < 0 && (left = deadline - System.currentTimeMillis()) > 0) {
            StartGate.class.wait(left);
        }
        long at = runId.equals(run) ? instant : -1;
        run = null;
        readyAt = -1;
        instant = -1;
        return at;
    }
}
