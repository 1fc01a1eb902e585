package org.dsload.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.ManagedProcess;
import org.dsload.process.Orphans;
import org.dsload.process.ProcessTree;
import org.dsload.recording.EndForAll;

/**
 * A JMeter process of a run: started in the run folder, its console output copied to a file and
 * to the runner's console line by line, waited for with an optional time limit, and stopped with
 * its descendants.
 *
 * <p>It runs in a session of its own, so a Ctrl-C in the terminal reaches the runner alone, which
 * then asks JMeter to end its test ({@link StopMessage}): JMeter stops its threads (and its
 * slaves'), writes its last results and its dashboard, and exits. It never outlives the runner:
 * at the runner's exit it is asked the same and then stopped by signal, and when the runner is
 * killed outright, its orphan reaper ({@link Orphans}) stops it.
 *
 * <p>A JMeter that has said its test is over is not waited for: in a run on this machine it
 * prints {@value #END_OF_RUN} once its listeners have written everything, and then idles about a
 * second (the engine's thread pool keeps its last thread that long) before its JVM exits; the
 * master of a distributed run prints {@value #TIDYING_UP_REMOTE} once every slave has ended and its
 * listeners have written the slaves' last samples, and then sleeps 5 s "to let listeners close
 * files" (JMeter.ListenToTest). Past such a line, and a moment's grace to exit on its own, the
 * process is ended by SIGTERM (its shutdown hooks run) and counts as having exited normally. The master's line counts only
 * when nothing is left for JMeter to do after its sleep: neither its dashboard ({@code -e}) nor an
 * exit of the slaves ({@code -X}).
 */
final class JMeterProcess {
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration PUMP_DRAIN = Duration.ofSeconds(10);
    /** How long a JMeter asked to stop may take to end its test and write its results and dashboard. */
    static final Duration ASKED_STOP_LIMIT = Duration.ofSeconds(60);
    /** At the runner's exit there is less time: the results file first, the dashboard can be made later. */
    private static final Duration EXIT_STOP_LIMIT = Duration.ofSeconds(15);
    /** The line JMeter prints when it listens for its stop commands (JMeter.waitForSignals). */
    static final Pattern COMMAND_PORT = Pattern.compile("Waiting for possible Shutdown/StopTestNow.* on port (\\d+)");
    /** JMeter's last line of a test (JMeter.ListenToTest.endTest). */
    static final String END_OF_RUN = "... end of run";
    /** The first line of the end of a distributed test, printed by the master before it sleeps 5 s. */
    static final String TIDYING_UP_REMOTE = "Tidying up remote @";
    /** How long a JMeter that said it is done has to exit by itself. */
    private static final Duration DONE_GRACE = Duration.ofMillis(200);
    private static final long POLL_MILLIS = 50;

    private final Process process;
    private final PrintStream console;
    private final Path copy;
    private final Thread pump;
    private final Thread exitHook;
    private final boolean doneAtTidyUp;
    private volatile int commandPort = -1;
    /** When JMeter said its test is over ({@link System#nanoTime()}), or 0. */
    private volatile long doneAt;
    /** Whether the runner ended a JMeter that had said its test is over. */
    private volatile boolean endedWhenDone;
    private LiveConsole lines;

    private JMeterProcess(Process process, PrintStream console, Path copy, boolean doneAtTidyUp) {
        this.process = process;
        this.doneAtTidyUp = doneAtTidyUp;
        this.console = console;
        this.copy = copy;
        this.pump = new Thread(this::pumpOutput, "jmeter-output");
        this.exitHook = new Thread(() -> stop(EXIT_STOP_LIMIT), "dsload-jmeter-stop");
    }

    /** Starts JMeter in the folder, its console output into {@code copy} and onto the console. */
    static JMeterProcess start(List<String> command, Path dir, Path copy, PrintStream console) throws IOException {
        return start(command, dir, copy, console, false);
    }

    /** @param rewriteLiveLine whether the live line is rewritten in place, the console being a terminal */
    static JMeterProcess start(List<String> command, Path dir, Path copy, PrintStream console, boolean rewriteLiveLine)
            throws IOException {
        Process process = new ProcessBuilder(ManagedProcess.detached(command)).directory(dir.toFile())
                .redirectErrorStream(true).start();
        JMeterProcess jmeter = new JMeterProcess(process, console, copy, doneAtTidyUp(command));
        jmeter.lines = new LiveConsole(console, rewriteLiveLine);
        Orphans.watch(process.toHandle());
        Runtime.getRuntime().addShutdownHook(jmeter.exitHook);
        jmeter.pump.setDaemon(true);
        jmeter.pump.start();
        return jmeter;
    }

    /** Whether the master's {@value #TIDYING_UP_REMOTE} line ends what JMeter has to do: no dashboard, no slaves to exit. */
    static boolean doneAtTidyUp(List<String> command) {
        return command.stream().noneMatch(a -> a.equals("-e") || a.equals("--reportatendofloadtests") || a.equals("-X")
                || a.equals("--remoteexit"));
    }

    /** Whether a line of JMeter's console says its test is over and its listeners have written everything. */
    static boolean saysDone(String line, boolean doneAtTidyUp) {
        return line.startsWith(END_OF_RUN) || doneAtTidyUp && line.startsWith(TIDYING_UP_REMOTE);
    }

    private void pumpOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintStream file = new PrintStream(Files.newOutputStream(copy), true, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                file.println(line);
                lines.show(line);
                if (doneAt == 0 && saysDone(line, doneAtTidyUp)) {
                    doneAt = System.nanoTime();
                }
                Matcher m = COMMAND_PORT.matcher(line);
                if (m.find()) {
                    commandPort = Integer.parseInt(m.group(1));
                }
                if (line.startsWith(EndForAll.LINE)) {
                    // an engine whose end ends the run has ended (the one that injected the faults, or one that
                    // refused the test): the others stop too
                    int port = commandPort;
                    if (port <= 0 || !StopMessage.shutdown(port)) {
                        console.println("dsload: could not ask JMeter to end the other engines' test; they run to "
                                + "the plan's duration");
                    }
                }
            }
        } catch (IOException e) {
            console.println("dsload: lost JMeter's console output: " + e.getMessage());
        }
        lines.end();
    }

    /**
     * Waits for JMeter to end, at most {@code limit} (null: no limit); true when it ended. A JMeter
     * that said its test is over and has not exited within a moment is ended here.
     */
    boolean await(Duration limit) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            long left = limit == null ? Long.MAX_VALUE : limit.toNanos() - (System.nanoTime() - start);
            if (left <= 0) {
                return !process.isAlive();
            }
            if (process.waitFor(Math.min(POLL_MILLIS, Math.max(1, left / 1_000_000)), TimeUnit.MILLISECONDS)) {
                return true;
            }
            long done = doneAt;
            if (done != 0 && !endedWhenDone && System.nanoTime() - done >= DONE_GRACE.toNanos()) {
                // SIGTERM: its shutdown hooks still run (a metrics endpoint that lingers for a last scrape)
                endedWhenDone = true;
                process.destroy();
            }
        }
    }

    /** Asks JMeter to end its test now (as its StopTestNow command does); false when it cannot be asked. */
    boolean askToStop() {
        int port = commandPort;
        return port > 0 && process.isAlive() && StopMessage.stopTestNow(port);
    }

    /**
     * Asks JMeter to end its test and waits up to {@code limit} for it to exit, so that its results
     * are complete; what is still running then is stopped by signal (SIGTERM, JMeter then writes
     * the results it holds; SIGKILL after a grace period).
     */
    void stop(Duration limit) {
        if (!process.isAlive()) {
            return;
        }
        boolean asked = askToStop();
        try {
            if (asked && ProcessTree.awaitExit(process.toHandle(), limit)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopWithin(STOP_GRACE);
    }

    /** SIGTERM to JMeter and whatever it started (JMeter then writes the results it holds), SIGKILL after {@code grace}. */
    void stopWithin(Duration grace) {
        ProcessTree.stop(process.toHandle(), grace);
    }

    /**
     * JMeter's exit code, once its console output has been read to the end; the process is then
     * forgotten. A JMeter the runner ended after it said its test is over exited normally: 0.
     */
    int exitCode() throws InterruptedException {
        process.waitFor();
        pump.join(PUMP_DRAIN.toMillis());
        ended();
        return endedWhenDone ? 0 : process.exitValue();
    }

    private void ended() {
        Orphans.forget(process.pid());
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or is about to, and finds the process gone
        }
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /**
     * Runs a JMeter command that needs no watching (the dashboard from a results file) to its
     * end, its output into a file; stopped past the limit.
     *
     * @return null when it ended with exit code 0, else what went wrong
     */
    static String runToEnd(List<String> command, Path dir, Path output, Duration limit)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!ProcessTree.awaitExit(p, limit)) {
            ProcessTree.stop(p.toHandle(), STOP_GRACE);
            return "it took longer than " + limit.toMinutes() + " minutes; stopped";
        }
        return p.exitValue() == 0 ? null : "it ended with exit code " + p.exitValue();
    }
}
