package org.dsload.process;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A process and its descendants, stopped by PID: SIGTERM to the whole tree, SIGKILL to what is
 * still there after a grace period. The tree is listed before the first signal: once a wrapper (a
 * shell, a launcher script) has died, its children belong to init and are no longer found under it.
 */
public final class ProcessTree {
    /** How long a SIGKILLed process may take to be gone before the caller is told it is not. */
    static final Duration AFTER_KILL = Duration.ofSeconds(10);

    private ProcessTree() {
    }

    /** The process's descendants, deepest first, then the process itself: the order to signal them in. */
    public static List<ProcessHandle> of(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        Collections.reverse(all);
        all.add(root);
        return all;
    }

    /** Waits until the process has ended or the limit has passed; true when it has ended. */
    public static boolean awaitExit(ProcessHandle process, Duration limit) throws InterruptedException {
        try {
            process.onExit().get(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return !process.isAlive();
        }
    }

    /**
     * As {@link #awaitExit(ProcessHandle, Duration)} for a process this JVM started: once it answers
     * true, the process's exit value is known (its handle can report the end before that).
     */
    public static boolean awaitExit(Process process, Duration limit) throws InterruptedException {
        return process.waitFor(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS);
    }

    /**
     * SIGTERM to the process and its descendants, SIGKILL to those still running after the grace
     * period. Interrupted, it kills at once and keeps the interrupt.
     *
     * @return true when every process of the tree has ended
     */
    public static boolean stop(ProcessHandle root, Duration grace) {
        List<ProcessHandle> tree = of(root);
        tree.forEach(ProcessHandle::destroy);
        try {
            long deadline = System.nanoTime() + grace.toNanos();
            for (ProcessHandle p : tree) {
                awaitExit(p, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return killAll(tree);
    }

    /** SIGKILL to the process and its descendants, at once; true when every one has ended. */
    public static boolean kill(ProcessHandle root) {
        return killAll(of(root));
    }

    private static boolean killAll(List<ProcessHandle> tree) {
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        boolean interrupted = Thread.interrupted();
        try {
            long deadline = System.nanoTime() + AFTER_KILL.toNanos();
            for (ProcessHandle p : tree) {
                try {
                    awaitExit(p, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return tree.stream().noneMatch(ProcessHandle::isAlive);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The running process with this PID, if there is one. */
    public static Optional<ProcessHandle> alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    }

    /** When the process started, as text to keep in a file, or null when that is not known. */
    public static String startInstant(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(Instant::toString).orElse(null);
    }

    /** A process as a file records its owner: "PID start", the start as {@link #startInstant} gives it. */
    public static String owner(long pid) {
        return pid + " " + startInstant(pid);
    }

    /** An owner as a file recorded it ({@link #owner}): its PID, and its start when known (null: trust the PID). */
    public record Owner(long pid, String start) {
        /** The owner the text names ("PID start", or "PID" alone), or none when it names no PID. */
        public static Optional<Owner> parse(String text) {
            String[] f = text.strip().split(" ", 2);
            try {
                return Optional.of(new Owner(Long.parseLong(f[0]), f.length > 1 && !f[1].equals("null") ? f[1] : null));
            } catch (NumberFormatException notAPid) {
                return Optional.empty();
            }
        }

        /** The owner still runs: its PID is alive, and started when recorded (a PID given since to another process is not). */
        public boolean runs() {
            return same(pid, start).isPresent();
        }
    }

    /**
     * The process with this PID when it is alive and started when recorded: a PID the system has
     * since given to another process is left alone. A record without a start time trusts the PID.
     */
    public static Optional<ProcessHandle> same(long pid, String recordedStart) {
        return alive(pid).filter(h -> recordedStart == null
                || h.info().startInstant().map(Instant::toString).map(recordedStart::equals).orElse(true));
    }
}
