package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.remote.SlaveAddress;
import org.dsload.remote.SlaveProbe;

/**
 * Watches the slaves while a distributed run's master works. JMeter's master waits for every
 * slave it started to report the end of its test and never gives up on one that died, so the
 * master of a run that lost a slave would wait forever. This watch notices the loss (the slave's
 * process gone, or its registry port refusing connections), and once every other slave has
 * reported its end in the master's log, stops the master with SIGTERM: JMeter's shutdown hook
 * then flushes and closes the results file, which by then holds every sample of the slaves that
 * finished (a slave hands over its last samples before it reports its end).
 */
final class SlaveWatch implements AutoCloseable {
    static final Pattern FINISHED = Pattern.compile("Finished remote host: (\\S+) \\((\\d+)\\)");
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /** Consecutive refused probes before a slave without a known process counts as lost. */
    private static final int PROBES_TO_LOSE = 3;
    private static final long TICK_MILLIS = 500;

    /** A slave lost at {@code time} (epoch ms). */
    record Loss(long time, String detail) {
    }

    private final List<SlaveAddress> slaves;
    private final Map<SlaveAddress, ProcessHandle> localProcesses;
    private final Path masterLog;
    private final Process master;
    private final PrintStream console;
    private final Map<String, Long> finished = new ConcurrentHashMap<>();
    private final Map<String, Loss> lost = new ConcurrentHashMap<>();
    private final Map<String, Integer> refusals = new ConcurrentHashMap<>();
    private final Map<String, Long> firstRefusal = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean stoppedMaster;
    private long logOffset;

    SlaveWatch(List<SlaveAddress> slaves, Map<SlaveAddress, ProcessHandle> localProcesses, Path masterLog,
            Process master, PrintStream console) {
        this.slaves = List.copyOf(slaves);
        this.localProcesses = Map.copyOf(localProcesses);
        this.masterLog = masterLog;
        this.master = master;
        this.console = console;
        this.thread = new Thread(this::loop, "dsload-slave-watch");
        this.thread.setDaemon(true);
    }

    SlaveWatch start() {
        thread.start();
        return this;
    }

    private void loop() {
        while (!closed && master.isAlive()) {
            try {
                tick();
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | IOException e) {
                console.println("dsload: slave watch: " + e);
            }
        }
    }

    void tick() throws IOException, InterruptedException {
        readMasterLog();
        for (SlaveAddress slave : slaves) {
            String key = slave.toString();
            if (finished.containsKey(key) || lost.containsKey(key)) {
                continue;
            }
            ProcessHandle process = localProcesses.get(slave);
            if (process != null) {
                if (!process.isAlive()) {
                    lose(key, System.currentTimeMillis(), "its jmeter-server process (pid " + process.pid() + ") exited");
                }
                continue;
            }
            long now = System.currentTimeMillis();
            Optional<String> refused = SlaveProbe.unreachable(slave, PROBE_TIMEOUT);
            if (refused.isEmpty()) {
                refusals.remove(key);
                firstRefusal.remove(key);
            } else {
                firstRefusal.putIfAbsent(key, now);
                if (refusals.merge(key, 1, Integer::sum) >= PROBES_TO_LOSE) {
                    lose(key, firstRefusal.get(key), "its RMI registry port stopped accepting connections ("
                            + refused.get() + ")");
                }
            }
        }
        if (!lost.isEmpty() && !stoppedMaster && finished.size() + lost.size() >= slaves.size()) {
            // the finished slaves' last RMI calls returned before they logged their end; a moment more is margin
            Thread.sleep(1000);
            console.println("dsload: every slave still running has finished; stopping the master (pid " + master.pid()
                    + "), which would wait for " + String.join(", ", lost.keySet()) + " forever");
            stoppedMaster = true;
            master.destroy();
        }
    }

    private void lose(String slave, long time, String detail) {
        lost.put(slave, new Loss(time, detail));
        console.println("dsload: lost slave " + slave + ": " + detail + "; the run goes on with the others");
    }

    /** Reads the master log's new complete lines for the slaves that reported the end of their test. */
    private void readMasterLog() throws IOException {
        if (!Files.isRegularFile(masterLog)) {
            return;
        }
        try (RandomAccessFile file = new RandomAccessFile(masterLog.toFile(), "r")) {
            long length = file.length();
            if (length <= logOffset) {
                return;
            }
            byte[] bytes = new byte[(int) Math.min(length - logOffset, 4 << 20)];
            file.seek(logOffset);
            file.readFully(bytes);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            if (end == 0) {
                return;
            }
            logOffset += end;
            Matcher m = FINISHED.matcher(new String(bytes, 0, end, StandardCharsets.UTF_8));
            while (m.find()) {
                finished.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
    }

    Map<String, Loss> lost() {
        return Map.copyOf(lost);
    }

    boolean stoppedMaster() {
        return stoppedMaster;
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join(5000);
    }
}
