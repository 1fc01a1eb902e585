package org.dsload.recording;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.format.RunFiles;
import org.dsload.core.format.RunProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a slave's thread groups until the one instant the runner gives every engine of the run, so
 * that the slaves start together: JMeter's master sends each slave the plan and its run command
 * one after another, and each slave then starts its elements, seconds apart on a busy machine. The
 * runner adds this element last under the test plan ({@link ResultsPlan}): JMeter calls every
 * element's {@code testStarted} in the plan's order before it starts any thread group, so this one
 * comes after the others are ready. The runner writes the instant ({@link RunFiles#START_AT}, epoch
 * ms) into each local slave's run folder once every slave has reached this point; a slave waits for
 * it up to {@value RunProperties#START_WAIT} ms, then starts without it. A slave without a run folder
 * (one on another machine) marks itself ready in its JVM instead and is given the instant, in its own
 * clock, over its {@link RecordingStore} ({@link StartGate}). The master and a local run do not wait.
 */
public class StartInstant extends AbstractTestElement implements TestStateListener, NoThreadClone, Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(StartInstant.class);
    private static final long POLL_MILLIS = 2;

    @Override
    public void testStarted() {
        // a local run, or the master: nothing to wait for
    }

    @Override
    public void testStarted(String host) {
        hold(host);
        Path folder = notesFolder();
        if (folder != null) {
            try {
                // for the summary's Slaves section: when each engine's thread groups started (fetched with the
                // recordings from a slave without a run folder)
                Files.createDirectories(folder);
                Files.writeString(folder.resolve(RunFiles.THREADS_STARTED), System.currentTimeMillis() + "\n",
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                log.warn("dsload: cannot note when engine {} started its threads: {}", host, e.getMessage());
            }
        }
    }

    /** The slave's run folder, or for a slave without one its folder the runner fetches; null outside a dsload run. */
    private static Path notesFolder() {
        String runDir = JMeterUtils.getPropDefault(RunProperties.RUN_DIR, "").trim();
        if (!runDir.isEmpty()) {
            return Path.of(runDir);
        }
        return Recording.fetchedFolder().orElse(null);
    }

    /** Waits for the run's start instant, when the runner gives one. */
    private static void hold(String host) {
        long limit = JMeterUtils.getPropDefault(RunProperties.START_WAIT, 0L);
        String runDir = JMeterUtils.getPropDefault(RunProperties.RUN_DIR, "").trim();
        if (limit <= 0) {
            return;
        }
        long from = System.currentTimeMillis();
        long at;
        if (runDir.isEmpty()) {
            // a slave without a run folder: the runner asks this JVM over its recording store (served from now on)
            Path fetched = Recording.fetchedFolder().orElse(null);
            if (fetched == null) {
                return;
            }
            String runId = fetched.getFileName().toString();
            StartGate.ready(runId, from);
            try {
                at = StartGate.await(runId, from + limit);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the test is being stopped: start at once, as it asks
                return;
            }
        } else {
            Path folder = Path.of(runDir);
            try {
                // tells the runner this engine is ready: it gives the instant once every slave is
                Files.writeString(folder.resolve(RunFiles.START_READY), from + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                log.warn("dsload: cannot tell the runner that engine {} is ready ({}); its threads start now", host,
                        e.getMessage());
                return;
            }
            at = awaitInstant(folder.resolve(RunFiles.START_AT), from + limit);
        }
        if (at < 0) {
            log.warn("dsload: engine {} had no start instant from the runner within {} ms; its threads start now", host,
                    limit);
            return;
        }
        long late = System.currentTimeMillis() - at;
        if (late > 0) {
            log.warn("dsload: engine {} read the run's start instant {} ms after it; its threads start now", host, late);
            return;
        }
        waitUntil(at);
        log.info("dsload: engine {} starts its threads at the run's start instant {} (waited {} ms)", host, at,
                System.currentTimeMillis() - from);
    }

    /** The instant in the file once it is there, or -1 if it is not by {@code deadline} (epoch ms). */
    private static long awaitInstant(Path file, long deadline) {
        while (System.currentTimeMillis() < deadline) {
            if (Files.isRegularFile(file)) {
                try {
                    String text = Files.readString(file, StandardCharsets.UTF_8).trim();
                    if (!text.isEmpty()) {
                        return Long.parseLong(text);
                    }
                } catch (IOException | NumberFormatException e) {
                    // the runner moves the file into place whole: read it again
                }
            }
            if (!sleep(POLL_MILLIS)) {
                return -1;
            }
        }
        return -1;
    }

    /** Sleeps to a few milliseconds before the instant, then spins to it. */
    private static void waitUntil(long at) {
        long left;
        while ((left = at - System.currentTimeMillis()) > 0) {
            if (left > POLL_MILLIS) {
                if (!sleep(left - POLL_MILLIS)) {
                    return;
                }
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test is being stopped: start at once, as it asks
            return false;
        }
    }

    @Override
    public void testEnded() {
        // nothing held
    }

    @Override
    public void testEnded(String host) {
        // nothing held
    }
}
