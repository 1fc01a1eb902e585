package org.dsload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server process started for tests or the main job: output to a log file, readiness waited for
 * with a time limit, stopped by PID, and never left behind (a shutdown hook kills whatever is
 * still running when the JVM exits).
 */
public final class ManagedProcess implements AutoCloseable {
    private static final Set<ManagedProcess> RUNNING = ConcurrentHashMap.newKeySet();

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

    private void launch() {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            process = builder.start();
            RUNNING.add(this);
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
        await(() -> portOpen(host, port), timeout, "port " + host + ":" + port + " to accept connections");
    }

    /** Waits for a condition, failing with the end of the log if the process dies or time runs out. */
    public void await(BooleanSupplier ready, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!isAlive()) {
                throw new IllegalStateException(name + " exited (code " + process.exitValue() + ") while waiting for "
                        + what + "; end of " + log + ":\n" + logTail(30));
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
            sleep(100);
        }
    }

    public static boolean portOpen(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
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

    /** SIGTERM, then SIGKILL if it has not exited within the grace period. */
    public void stop(Duration grace) {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
        RUNNING.remove(this);
    }

    /** SIGKILL, at once. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RUNNING.remove(this);
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
            }
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

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
