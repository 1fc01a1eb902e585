package org.dsload.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * A server process this JVM starts and owns: output to a log file, readiness waited for with a
 * time limit, stopped by PID with its descendants, and never left behind. A shutdown hook kills
 * whatever still runs when this JVM exits; when this JVM is killed outright, {@link Orphans}
 * stops it.
 *
 * <p>The server runs in a session of its own ({@code setsid}, where there is one): a Ctrl-C in
 * the terminal reaches the owner, which stops its servers in order, not every server at once.
 */
public final class ManagedProcess implements AutoCloseable {
    private static final Set<ManagedProcess> RUNNING = ConcurrentHashMap.newKeySet();
    private static final Duration SIGNAL_STOP_LIMIT = Duration.ofSeconds(5);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(ManagedProcess::kill), "managed-process-reaper"));
    }

    private final String name;
    private final List<String> command;
    private final Path workDir;
    private final Path log;
    private final Map<String, String> environment;
    private Process process;

    private ManagedProcess(String name, List<String> command, Path workDir, Path log, Map<String, String> environment) {
        this.name = name;
        this.command = List.copyOf(command);
        this.workDir = workDir;
        this.log = log;
        this.environment = Map.copyOf(environment);
    }

    public static ManagedProcess start(String name, List<String> command, Path workDir, Path log) {
        return start(name, command, workDir, log, Map.of());
    }

    public static ManagedProcess start(String name, List<String> command, Path workDir, Path log,
            Map<String, String> environment) {
        ManagedProcess managed = new ManagedProcess(name, command, workDir, log, environment);
        managed.launch();
        return managed;
    }

    /** The command preceded by {@code setsid} where the system has it: the process leaves the terminal's session. */
    public static List<String> detached(List<String> command) {
        if (!new File("/usr/bin/setsid").canExecute() && !new File("/bin/setsid").canExecute()) {
            return command;
        }
        List<String> full = new ArrayList<>(command.size() + 1);
        full.add("setsid");
        full.addAll(command);
        return full;
    }

    private void launch() {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(log.getParent());
            // setsid execs the command in place (a child of a JVM leads no process group), so the PID is the server's
            ProcessBuilder builder = new ProcessBuilder(detached(command)).directory(workDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            process = builder.start();
            RUNNING.add(this);
            Orphans.watch(process.toHandle());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Starts the same command again (after {@link #stop} or {@link #kill}). */
    public void restart() {
        if (isAlive()) {
            throw new IllegalStateException(name + " is still running (pid " + pid() + ")");
        }
        launch();
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** Waits until a TCP connection to host:port succeeds; fails early if the process dies. */
    public void awaitPort(String host, int port, Duration timeout) {
        await(() -> Ports.open(host, port), timeout, "port " + host + ":" + port + " to accept connections");
    }

    /** Waits for a condition, failing with the end of the log if the process dies or time runs out. */
    public void await(BooleanSupplier ready, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!isAlive()) {
                throw new Exited(name + " exited (code " + process.exitValue() + ") while waiting for " + what
                        + "; end of " + log + ":\n" + logTail(30), logTail(30));
            }
            boolean done;
            try {
                done = ready.getAsBoolean();
            } catch (RuntimeException notYet) {
                done = false;
            }
            if (done) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " (pid " + pid() + ") not ready after " + timeout.toSeconds()
                        + " s waiting for " + what + "; end of " + log + ":\n" + logTail(30));
            }
            Deadline.sleep(100);
        }
    }

    /** The server ended before it was ready; {@link #logTail()} is what it said last. */
    public static final class Exited extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final String logTail;

        Exited(String message, String logTail) {
            super(message);
            this.logTail = logTail;
        }

        public String logTail() {
            return logTail;
        }
    }

    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM to the process and its descendants, then SIGKILL if they have not exited within the grace period. */
    public void stop(Duration grace) {
        if (process == null) {
            return;
        }
        ProcessTree.stop(process.toHandle(), grace);
        ended();
    }

    /** SIGKILL, at once. */
    public void kill() {
        if (process == null) {
            return;
        }
        ProcessTree.kill(process.toHandle());
        ended();
    }

    private void ended() {
        RUNNING.remove(this);
        Orphans.forget(process.pid());
    }

    /**
     * SIGSTOP: the process keeps its sockets but answers nothing. Returns once every thread of the
     * process shows as stopped in /proc: the kernel stops each thread when it next schedules it,
     * and a request that reaches a thread still running meanwhile is answered. Fails when the
     * process is not stopped within 5 s.
     */
    public void pause() {
        try {
            Signals.stopConfirmed(pid(), SIGNAL_STOP_LIMIT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Signals.send(pid(), signal);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(10));
    }
}
