package org.dsload.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.ProcFs;
import org.dsload.remote.SlaveAddress;
import org.dsload.remote.SlaveProbe;

/**
 * Watches the slaves while a distributed run's master works. JMeter's master waits for every
 * slave it started to report the end of its test and never gives up on one that died or froze,
 * so the master of such a run would wait forever. This watch notices a lost slave (its process
 * gone, or its registry port refusing connections) and a stalled one (its port accepts, but the
 * process has answered nothing for {@link Timing#stalledAfter}: frozen by SIGSTOP, or its machine
 * no longer runs it; or its host answers no connection at all: a link cut, a host down). A stalled
 * slave that answers again is waited for as before, and named as {@link #interrupted}. Once every other slave has reported its end in the master's log, it stops
 * the master with SIGTERM: at once when only lost slaves are left, after {@link Timing#grace}
 * when a stalled one is (it may come back); with no other slave to go by, at the run's planned
 * end plus that grace. JMeter's shutdown hook then writes the results file, which holds every
 * sample of the slaves that finished (a slave hands over its last samples before it reports its
 * end). A frozen slave cannot be told to stop over RMI (the call would wait for it), hence the
 * signal.
 */
final class SlaveWatch implements AutoCloseable {
    static final Pattern FINISHED = Pattern.compile("Finished remote host: (\\S+) \\((\\d+)\\)");
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /** Consecutive refused probes before a slave without a known process counts as lost. */
    private static final int PROBES_TO_LOSE = 3;
    private static final long TICK_MILLIS = 500;
    /** Probes in a row without an answer that make a silence worth naming once the slave answers again. */
    private static final int PROBES_TO_INTERRUPT = 2;

    /** A slave lost, or stalled, since {@code time} (epoch ms). */
    record Loss(long time, String detail) {
    }

    /**
     * How long a slave may say nothing before it counts as stalled, how often it is asked, how long
     * the run waits for a stalled slave once the others are done, and the run's planned length
     * (null when unknown), which bounds the wait when no other slave finishes.
     */
    record Timing(Duration stalledAfter, Duration probeEvery, Duration grace, Duration planned) {
        static Timing of(Duration planned) {
            return new Timing(Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(10), planned);
        }
    }

    private final List<SlaveAddress> slaves;
    private final Map<SlaveAddress, ProcessHandle> localProcesses;
    private final LogTail masterLog;
    private final Process master;
    private final PrintStream console;
    private final Timing timing;
    private final long started = System.currentTimeMillis();
    private final Map<String, Long> finished = new ConcurrentHashMap<>();
    private final Map<String, Loss> lost = new ConcurrentHashMap<>();
    private final Map<String, Loss> stalled = new ConcurrentHashMap<>();
    private final Map<String, Integer> refusals = new ConcurrentHashMap<>();
    private final Map<String, Long> firstRefusal = new ConcurrentHashMap<>();
    private final Map<String, Long> silentSince = new ConcurrentHashMap<>();
    /** Why a slave has been silent, and how many probes in a row it let pass. */
    private final Map<String, String> silentWhy = new ConcurrentHashMap<>();
    private final Map<String, Integer> silentProbes = new ConcurrentHashMap<>();
    /** Slaves that answered nothing for a while and then answered again: since when, and why. */
    private final Map<String, Loss> interrupted = new ConcurrentHashMap<>();
    private final Map<String, Long> lastProbe = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean stoppedMaster;

    SlaveWatch(List<SlaveAddress> slaves, Map<SlaveAddress, ProcessHandle> localProcesses, Path masterLog,
            Process master, PrintStream console) {
        this(slaves, localProcesses, masterLog, master, console, Timing.of(null));
    }

    SlaveWatch(List<SlaveAddress> slaves, Map<SlaveAddress, ProcessHandle> localProcesses, Path masterLog,
            Process master, PrintStream console, Timing timing) {
        this.slaves = List.copyOf(slaves);
        this.localProcesses = Map.copyOf(localProcesses);
        this.masterLog = new LogTail(masterLog);
        this.master = master;
        this.console = console;
        this.timing = timing;
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
            if (process != null && !process.isAlive()) {
                lose(key, System.currentTimeMillis(), "its jmeter-server process (pid " + process.pid() + ") exited");
                continue;
            }
            long now = System.currentTimeMillis();
            if (process != null && now - lastProbe.getOrDefault(key, 0L) < timing.probeEvery().toMillis()) {
                continue;
            }
            lastProbe.put(key, now);
            SlaveProbe.Probe probe = SlaveProbe.probe(slave, PROBE_TIMEOUT);
            switch (probe.reply()) {
                case UNREACHABLE -> {
                    if (process == null) {
                        refused(key, now, probe.detail());
                    }
                }
                case SILENT, NO_ANSWER -> silent(key, now, process, probe.detail());
                case ANSWERS -> answers(key, now);
            }
        }
        stopMasterIfOnlyGoneSlavesAreLeft();
    }

    private void refused(String key, long now, String detail) {
        firstRefusal.putIfAbsent(key, now);
        if (refusals.merge(key, 1, Integer::sum) >= PROBES_TO_LOSE) {
            stalled.remove(key);
            lose(key, firstRefusal.get(key), "its RMI registry port stopped accepting connections (" + detail + ")");
        }
    }

    private void silent(String key, long now, ProcessHandle process, String detail) {
        refusals.remove(key);
        firstRefusal.remove(key);
        long since = silentSince.computeIfAbsent(key, k -> now);
        silentWhy.put(key, detail);
        silentProbes.merge(key, 1, Integer::sum);
        if (stalled.containsKey(key) || now - since < timing.stalledAfter().toMillis()) {
            return;
        }
        String why = "silent for " + (now - since) / 1000 + " s: " + detail
                + (process != null && ProcFs.state(process.pid()) == 'T'
                        ? "; its process (pid " + process.pid() + ") is stopped (SIGSTOP or a debugger)" : "");
        stalled.put(key, new Loss(since, why));
        console.println("dsload: slave " + key + " stalled: " + why + "; the run ends without it when the others are done");
    }

    private void answers(String key, long now) {
        refusals.remove(key);
        firstRefusal.remove(key);
        Long since = silentSince.remove(key);
        String why = silentWhy.remove(key);
        Integer probes = silentProbes.remove(key);
        boolean wasStalled = stalled.remove(key) != null;
        if (since != null && probes != null && probes >= PROBES_TO_INTERRUPT) {
            String seconds = String.format(java.util.Locale.ROOT, "%.1f", (now - since) / 1000.0);
            // the first such silence of the run is the one named (a later one is on the console)
            interrupted.putIfAbsent(key, new Loss(since, "answered nothing for " + seconds + " s (" + probes
                    + " probes): " + why + "; then it answered again"));
            console.println("dsload: slave " + key + " answers again after " + seconds + " s without an answer"
                    + (wasStalled ? "" : " (" + why + ")") + "; the run waits for it as before");
        } else if (wasStalled) {
            console.println("dsload: slave " + key + " answers again; the run waits for it as before");
        }
    }

    private void stopMasterIfOnlyGoneSlavesAreLeft() throws InterruptedException {
        if (stoppedMaster || (lost.isEmpty() && stalled.isEmpty())
                || finished.size() + lost.size() + stalled.size() < slaves.size()) {
            return;
        }
        if (stalled.isEmpty()) {
            // the finished slaves' last RMI calls returned before they logged their end; a moment more is margin
            Thread.sleep(1000);
            stopMaster("every slave still running has finished", lost.keySet());
            return;
        }
        long now = System.currentTimeMillis();
        long due;
        String why;
        if (!finished.isEmpty()) {
            due = finished.values().stream().mapToLong(Long::longValue).max().orElse(now) + timing.grace().toMillis();
            why = "every other slave finished " + timing.grace().toSeconds() + " s ago";
        } else if (timing.planned() != null) {
            due = started + timing.planned().toMillis() + timing.grace().toMillis();
            why = "the run's planned " + timing.planned().toSeconds() + " s and " + timing.grace().toSeconds()
                    + " s more have passed";
        } else {
            return; // no slave to go by and no planned length: the run's time limit, or the user, ends it
        }
        if (now >= due) {
            Set<String> gone = new TreeSet<>(stalled.keySet());
            gone.addAll(lost.keySet());
            stopMaster(why, gone);
        }
    }

    private void stopMaster(String why, Collection<String> gone) {
        console.println("dsload: " + why + "; stopping the master (pid " + master.pid() + "), which would wait for "
                + String.join(", ", gone) + " forever");
        stoppedMaster = true;
        master.destroy();
    }

    private void lose(String slave, long time, String detail) {
        lost.put(slave, new Loss(time, detail));
        console.println("dsload: lost slave " + slave + ": " + detail + "; the run goes on with the others");
    }

    /** Reads the master log's new complete lines for the slaves that reported the end of their test. */
    private void readMasterLog() throws IOException {
        Matcher m = FINISHED.matcher(masterLog.newLines());
        while (m.find()) {
            finished.put(m.group(1), Long.parseLong(m.group(2)));
            stalled.remove(m.group(1));
        }
    }

    Map<String, Loss> lost() {
        return Map.copyOf(lost);
    }

    /**
     * The slaves that answered nothing for {@value #PROBES_TO_INTERRUPT} probes or more and then answered again
     * (a link cut and restored, a process frozen and resumed): since when, for how long, and why.
     */
    Map<String, Loss> interrupted() {
        return Map.copyOf(interrupted);
    }

    /** The slaves stalled when the watch ended (one that answered again is not among them). */
    Map<String, Loss> stalled() {
        return Map.copyOf(stalled);
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
