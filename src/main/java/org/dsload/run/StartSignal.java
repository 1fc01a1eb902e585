package org.dsload.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.core.format.RunFiles;

/**
 * Gives the local slaves of a run one instant to start their threads at ({@code recording.StartInstant}
 * waits for it on each slave): once every slave is ready (its {@link RunFiles#START_READY} file: every
 * element started, its thread groups not yet), it writes that moment plus a margin into each
 * slave's folder ({@link RunFiles#START_AT}), whole (written beside, then moved into place). A slave
 * that JMeter's master did not start (its log names those it did) is not waited for.
 */
final class StartSignal implements AutoCloseable {
    /** JMeter's master logs this, with the slaves it started, once it has sent the last its run command. */
    static final Pattern ALL_STARTED = Pattern.compile("Remote engines have been started:\\[([^\\]]*)\\]");
    /** How long after the last slave is ready they start: time for every slave to read the instant. */
    static final long MARGIN_MILLIS = 300;
    private static final long POLL_MILLIS = 10;

    private final LogTail masterLog;
    /** The local slaves' folders, by address. */
    private final Map<String, Path> slaveFolders;
    private Set<String> startedByMaster;
    private final Thread thread;
    private volatile long instant = -1;

    private StartSignal(Path masterLog, Map<String, Path> slaveFolders) {
        this.masterLog = new LogTail(masterLog);
        this.slaveFolders = Map.copyOf(slaveFolders);
        this.thread = new Thread(this::follow, "dsload-start-signal");
        thread.setDaemon(true);
    }

    /** Follows the master's log until the slaves are told their start, or {@link #close}. */
    static StartSignal start(Path masterLog, Map<String, Path> slaveFolders) {
        StartSignal signal = new StartSignal(masterLog, slaveFolders);
        signal.thread.start();
        return signal;
    }

    /** The instant given to the slaves (epoch ms), or -1 while none was. */
    long instant() {
        return instant;
    }

    private void follow() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                readMasterLog();
                if (allReady()) {
                    give(System.currentTimeMillis() + MARGIN_MILLIS);
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
            if (startedByMaster == null || startedByMaster.contains(e.getKey())) {
                if (!Files.isRegularFile(e.getValue().resolve(RunFiles.START_READY))) {
                    return false;
                }
                waited++;
            }
        }
        return waited > 0;
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

    private void give(long at) throws IOException {
        for (Path folder : slaveFolders.values()) {
            Path part = folder.resolve(RunFiles.START_AT + ".tmp");
            Files.writeString(part, at + "\n", StandardCharsets.UTF_8);
            Files.move(part, folder.resolve(RunFiles.START_AT), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        }
        instant = at;
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
    }
}
