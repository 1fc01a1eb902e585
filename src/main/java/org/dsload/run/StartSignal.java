package org.dsload.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.rmi.registry.LocateRegistry;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.format.RunFiles;
import org.dsload.recording.RecordingSockets;
import org.dsload.recording.RecordingStore;

/**
 * Gives the slaves of a run one instant to start their threads at ({@code recording.StartInstant}
 * waits for it on each slave): once every slave is ready (every element started, its thread groups
 * not yet), it takes that moment plus a margin. A local slave says it is ready with its
 * {@link RunFiles#START_READY} file and is given the instant in its folder ({@link RunFiles#START_AT}),
 * whole (written beside, then moved into place). A slave without a run folder (on another machine)
 * is asked over its {@link RecordingStore}: the runner polls it for ready, measures its clock's
 * offset around one call (half the round trip is the error) and gives it the instant in its own
 * clock (the runner's instant plus the offset). A slave that JMeter's master did not start (its log
 * names those it did) is not waited for.
 */
final class StartSignal implements AutoCloseable {
    /** JMeter's master logs this, with the slaves it started, once it has sent the last its run command. */
    static final Pattern ALL_STARTED = Pattern.compile("Remote engines have been started:\\[([^\\]]*)\\]");
    /** How long after the last slave is ready they start: time for every slave to read the instant. */
    static final long MARGIN_MILLIS = 300;
    private static final long POLL_MILLIS = 10;

    /** How long {@link #close} waits for a call to a slave that does not answer. */
    private static final long CLOSE_MILLIS = 5_000;

    /** A slave without a run folder, as the runner reaches it: its engine's start handshake and its clock. */
    interface RemoteGate {
        /** When (the slave's clock) its engine became ready to start its threads, or -1 while not. */
        long readyAt() throws Exception;

        /** The slave's clock (epoch ms). */
        long clock() throws Exception;

        /** Gives the engine its start instant, in the slave's clock. */
        void startAt(long instant) throws Exception;
    }

    /** How far a slave's clock is from the runner's (ms), and the error of that measure: half the round trip. */
    record Offset(long millis, long error) {
    }

    private final LogTail masterLog;
    /** The local slaves' folders, by address. */
    private final Map<String, Path> slaveFolders;
    /** The slaves without a run folder, by address. */
    private final Map<String, RemoteGate> remotes;
    private final Set<String> remotesReady = new HashSet<>();
    /** Calls to a slave's clock, the best of which measures its offset ({@link #offset}): at least these. */
    static final int CLOCK_CALLS = 4;
    /** ...and more until two round trips agree, up to these many calls or this time. */
    static final int CLOCK_CALLS_MAX = 16;
    static final long CLOCK_CALLS_MILLIS = 2000;
    static final long CLOCK_CONFIRM_MILLIS = 2;
    private final Map<String, Offset> offsets = new LinkedHashMap<>();
    private Set<String> startedByMaster;
    private final Thread thread;
    private volatile long instant = -1;

    private StartSignal(Path masterLog, Map<String, Path> slaveFolders, Map<String, RemoteGate> remotes) {
        this.masterLog = new LogTail(masterLog);
        this.slaveFolders = Map.copyOf(slaveFolders);
        this.remotes = new LinkedHashMap<>(remotes);
        this.thread = new Thread(this::follow, "dsload-start-signal");
        thread.setDaemon(true);
    }

    /** Follows the master's log until the local slaves are told their start, or {@link #close}. */
    static StartSignal start(Path masterLog, Map<String, Path> slaveFolders) {
        return start(masterLog, slaveFolders, Map.of());
    }

    /** Follows the master's log until the local and remote slaves are told their start, or {@link #close}. */
    static StartSignal start(Path masterLog, Map<String, Path> slaveFolders, Map<String, RemoteGate> remotes) {
        StartSignal signal = new StartSignal(masterLog, slaveFolders, remotes);
        signal.thread.start();
        return signal;
    }

    /** A slave's {@link RecordingStore} at {@code host:port} (its recording port), looked up at each call until found. */
    static RemoteGate store(String host, int port, boolean ssl, String runId) {
        return new RemoteGate() {
            private RecordingStore store;

            private RecordingStore store() throws Exception {
                if (store == null) {
                    store = (RecordingStore) LocateRegistry.getRegistry(host, port, new RecordingSockets(ssl))
                            .lookup(RecordingStore.NAME);
                }
                return store;
            }

            @Override
            public long readyAt() throws Exception {
                return store().startReady(runId);
            }

            @Override
            public long clock() throws Exception {
                return store().currentTimeMillis();
            }

            @Override
            public void startAt(long at) throws Exception {
                store().startAt(runId, at);
            }
        };
    }

    /** The instant given to the slaves (epoch ms, the runner's clock), or -1 while none was. */
    long instant() {
        return instant;
    }

    /** The clock offsets of the slaves without a run folder, measured as they were given the instant. */
    synchronized Map<String, Offset> offsets() {
        return Map.copyOf(offsets);
    }

    private void follow() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                readMasterLog();
                if (allReady()) {
                    give();
                    return;
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the slaves start without an instant when their wait runs out; their logs say so
        }
    }

    /** Whether every slave that is to start is ready: every local one, or those the master started. */
    private boolean allReady() {
        int waited = 0;
        for (Map.Entry<String, Path> e : slaveFolders.entrySet()) {
            if (toStart(e.getKey())) {
                if (!Files.isRegularFile(e.getValue().resolve(RunFiles.START_READY))) {
                    return false;
                }
                waited++;
            }
        }
        for (Map.Entry<String, RemoteGate> e : remotes.entrySet()) {
            if (toStart(e.getKey())) {
                if (!remotesReady.contains(e.getKey())) {
                    try {
                        if (e.getValue().readyAt() < 0) {
                            return false;
                        }
                    } catch (Exception notYet) {
                        return false; // its store serves from its first dsload test on: ask again
                    }
                    remotesReady.add(e.getKey());
                }
                waited++;
            }
        }
        return waited > 0;
    }

    /** Whether a slave is to start: every one until the master's log names those it started. */
    private boolean toStart(String address) {
        return startedByMaster == null || startedByMaster.contains(address);
    }

    /** Reads the master's log on from where the last look ended, for the slaves it started. */
    private void readMasterLog() throws IOException {
        if (startedByMaster != null) {
            return;
        }
        Matcher m = ALL_STARTED.matcher(masterLog.newLines());
        if (m.find()) {
            Set<String> started = new HashSet<>();
            for (String address : m.group(1).split(",")) {
                started.add(address.trim());
            }
            startedByMaster = started;
        }
    }

    /**
     * The slave's clock offset from the call with the shortest round trip, of {@value #CLOCK_CALLS} calls back to
     * back or more. A call's midpoint stands for the instant the slave read its clock, which holds for a call that
     * is one round trip; RMI's first call on a connection idle for a while pings it first (a round trip more,
     * before the slave reads its clock), so on a link of 50 ms each way a single call put the slave 50 ms ahead.
     * The calls after it find the connection just used. A round trip that is long in one direction only (an
     * answer scheduled late on a busy machine) moves the midpoint by half the extra time: the calls go on until
     * a second one comes within {@value #CLOCK_CONFIRM_MILLIS} ms of the shortest, up to {@value #CLOCK_CALLS_MAX}
     * calls or {@value #CLOCK_CALLS_MILLIS} ms. One slave starting its engine beside three other JVMs on 2 cores
     * took 201 ms for the best of 4 calls on a link of 100 ms.
     */
    static Offset offset(RemoteGate gate) throws Exception {
        Offset best = null;
        long shortest = Long.MAX_VALUE;
        long[] trips = new long[CLOCK_CALLS_MAX];
        long until = System.nanoTime() + CLOCK_CALLS_MILLIS * 1_000_000L;
        for (int calls = 1; calls <= CLOCK_CALLS_MAX; calls++) {
            long before = System.currentTimeMillis();
            long theirs = gate.clock();
            long after = System.currentTimeMillis();
            trips[calls - 1] = after - before;
            if (after - before < shortest) {
                shortest = after - before;
                best = new Offset(theirs - (before + after) / 2, (after - before + 1) / 2);
            }
            if (calls >= CLOCK_CALLS && (agreeing(trips, calls, shortest) >= 2 || System.nanoTime() - until > 0)) {
                break;
            }
        }
        return best;
    }

    /** How many of the first {@code calls} round trips are within {@value #CLOCK_CONFIRM_MILLIS} ms of the shortest. */
    private static int agreeing(long[] trips, int calls, long shortest) {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            if (trips[i] <= shortest + CLOCK_CONFIRM_MILLIS) {
                n++;
            }
        }
        return n;
    }

    private void give() throws IOException {
        Map<String, Offset> measured = new LinkedHashMap<>();
        for (Map.Entry<String, RemoteGate> e : remotes.entrySet()) {
            if (toStart(e.getKey())) {
                try {
                    measured.put(e.getKey(), offset(e.getValue()));
                } catch (Exception unreachable) {
                    // that slave starts when its wait runs out, and its log says so
                }
            }
        }
        long at = System.currentTimeMillis() + MARGIN_MILLIS;
        for (Path folder : slaveFolders.values()) {
            Path part = folder.resolve(RunFiles.START_AT + ".tmp");
            Files.writeString(part, at + "\n", StandardCharsets.UTF_8);
            Files.move(part, folder.resolve(RunFiles.START_AT), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        for (Map.Entry<String, Offset> e : measured.entrySet()) {
            try {
                remotes.get(e.getKey()).startAt(at + e.getValue().millis());
            } catch (Exception unreachable) {
                continue; // as above
            }
            synchronized (this) {
                offsets.put(e.getKey(), e.getValue());
            }
        }
        instant = at;
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(CLOSE_MILLIS); // a call to a slave that went silent ends with its socket's time limit
    }
}
