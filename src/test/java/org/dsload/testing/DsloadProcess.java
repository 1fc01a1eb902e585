package org.dsload.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.ManagedProcess;
import org.dsload.process.ProcessTree;
import org.dsload.process.Signals;
import org.dsload.targets.Checkout;

/**
 * {@code bin/dsload <command> ...} run as a user runs it, in a session of its own as a terminal
 * would start it (so that a Ctrl-C can be sent to its process group), its output read line by line.
 */
public final class DsloadProcess implements AutoCloseable {
    private static final Pattern JMETER_PID = Pattern.compile("\\(JMeter pid (\\d+)\\)");
    private static final Pattern SLAVE_PID = Pattern.compile("^dsload: slave \\S+ pid (\\d+)$");
    private static final Pattern RESULTS = Pattern.compile("^dsload: results in (.+)$");

    private final Process process;
    private final OutputLines outputLines;
    private final List<String> lines;

    private DsloadProcess(Process process) {
        this.process = process;
        this.outputLines = OutputLines.of(process, null);
        this.lines = outputLines.lines();
    }

    /** Starts bin/dsload with these arguments and extra environment variables. */
    public static DsloadProcess start(Map<String, String> environment, String... args) throws IOException {
        return start(null, environment, args);
    }

    /**
     * Starts bin/dsload in {@code workDir} (null: this JVM's, the checkout), where what a command writes
     * beside itself lands: the recordings of slaves that {@code slaves start} leaves running, for one.
     */
    public static DsloadProcess startIn(Path workDir, String... args) throws IOException {
        return start(workDir, Map.of(), args);
    }

    private static DsloadProcess start(Path workDir, Map<String, String> environment, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Checkout.basedir().resolve("bin/dsload").toString()));
        command.addAll(List.of(args));
        // bin/dsload execs its JVM, and setsid execs bin/dsload: the PID is the JVM's and leads its process group
        ProcessBuilder builder = new ProcessBuilder(ManagedProcess.detached(command)).redirectErrorStream(true);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        builder.environment().putAll(environment);
        return new DsloadProcess(builder.start());
    }

    public static DsloadProcess start(String... args) throws IOException {
        return start(Map.of(), args);
    }

    /** Waits for the command to end and returns its exit code; fails past the limit. */
    public int exitCode(Duration limit) throws InterruptedException {
        if (!ProcessTree.awaitExit(process, limit)) {
            throw new IllegalStateException("dsload did not end within " + limit.toSeconds() + " s:\n" + output());
        }
        // the output reader may be a line behind the exit; a child left running may hold the output open
        outputLines.awaitEnd(Duration.ofSeconds(2));
        return process.exitValue();
    }

    /** Whether dsload is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the output has a line containing {@code text}; false when the limit passed or dsload ended first. */
    public boolean awaitLine(String text, Duration limit) throws InterruptedException {
        return Deadline.await(() -> lines.stream().anyMatch(l -> l.contains(text)) || !process.isAlive(), limit,
                Duration.ofMillis(100)) && lines.stream().anyMatch(l -> l.contains(text));
    }

    /** Ctrl-C in its terminal: SIGINT to its whole process group. */
    public void ctrlC() throws IOException, InterruptedException {
        ctrlC(process.pid());
    }

    /** Ctrl-C in the terminal of a process started in a session of its own: SIGINT to its process group. */
    public static void ctrlC(long groupLeader) throws IOException, InterruptedException {
        // A shell without job control starts a background command with SIGINT ignored, and every
        // process below it inherits that: Ctrl-C could not reach dsload, as in such a terminal.
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:") && (Long.parseLong(line.substring(7).trim(), 16) & 2) != 0) {
                throw new IllegalStateException("this JVM was started with SIGINT ignored (a background command of a "
                        + "shell without job control), so dsload inherits it and cannot see Ctrl-C: run the tests in "
                        + "the foreground, or from a shell with job control (set -m)");
            }
        }
        Commands.Result r = Commands.run(List.of("kill", "-INT", "--", "-" + groupLeader), Duration.ofSeconds(10));
        if (r.exit() != 0) {
            throw new IOException("kill -INT -- -" + groupLeader + " failed: " + r.output());
        }
    }

    /** A signal to the dsload JVM alone. */
    public void signal(String name) throws IOException, InterruptedException {
        Signals.send(process.pid(), name);
    }

    public long pid() {
        return process.pid();
    }

    public Optional<Long> jmeterPid() {
        return first(JMETER_PID);
    }

    public List<Long> slavePids() {
        List<Long> pids = new ArrayList<>();
        for (String line : lines) {
            Matcher m = SLAVE_PID.matcher(line);
            if (m.find()) {
                pids.add(Long.parseLong(m.group(1)));
            }
        }
        return pids;
    }

    /** The run folder the last lines name. */
    public Path resultsDir() {
        return lines.stream().map(RESULTS::matcher).filter(Matcher::matches).map(m -> Path.of(m.group(1))).findFirst()
                .orElseThrow(() -> new IllegalStateException("no 'results in' line:\n" + output()));
    }

    private Optional<Long> first(Pattern pattern) {
        for (String line : lines) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                try {
                    return Optional.of(Long.parseLong(m.group(1)));
                } catch (NumberFormatException notANumber) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    public String output() {
        return String.join("\n", lines);
    }

    /** Whatever is left of it and its children is stopped. */
    @Override
    public void close() {
        ProcessTree.kill(process.toHandle());
    }
}
