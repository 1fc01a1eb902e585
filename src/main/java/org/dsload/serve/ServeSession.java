package org.dsload.serve;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import org.dsload.process.Deadline;

/**
 * The targets one serve started, in its folder: started one after the other, stopped in the
 * reverse order. When one cannot start, the ones before it are stopped and the reason is the
 * first line of what went wrong.
 */
public final class ServeSession implements AutoCloseable {
    /** How long a failed start waits for the handler of a signal that may have caused it. */
    private static final java.time.Duration SIGNAL_GRACE = java.time.Duration.ofSeconds(1);
    private final ServeFolder folder;
    private final List<Served> served;
    private final PrintStream console;

    private ServeSession(ServeFolder folder, List<Served> served, PrintStream console) {
        this.folder = folder;
        this.served = served;
        this.console = console;
    }

    /**
     * The targets are not all serving: one could not start (the message is one sentence, already
     * printed), or a stop was asked for while they started. Those started have been stopped.
     */
    public static final class StartFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final boolean stopAsked;

        StartFailure(String message, boolean stopAsked, Throwable cause) {
            super(message, cause);
            this.stopAsked = stopAsked;
        }

        /** True when the start ended because a stop was asked for, not because a target failed. */
        public boolean stopAsked() {
            return stopAsked;
        }
    }

    public static ServeSession start(ServeRequest request, PrintStream console) {
        return start(request, console, () -> false);
    }

    /**
     * Starts every target of the request, each ready when the next starts.
     *
     * @param stopRequested asked between targets and when a start fails: when it says true, those
     *        started are stopped again (a stop may interrupt this thread to end the wait for a
     *        target; the interrupt is cleared before the others are stopped)
     * @throws StartFailure when a target cannot start, or a stop was asked for before all had
     */
    public static ServeSession start(ServeRequest request, PrintStream console, BooleanSupplier stopRequested) {
        ServeFolder folder = ServeFolder.open(request.data(), console);
        console.println("dsload: data and logs in " + folder.dir() + (folder.kept() ? " (kept)"
                : " (deleted when serve ends)"));
        List<Served> started = new ArrayList<>();
        ServeSession session = new ServeSession(folder, started, console);
        for (ServeRequest.Target target : request.targets()) {
            String label = target.label();
            if (stopRequested.getAsBoolean()) {
                throw session.stoppedWhileStarting(label, null);
            }
            console.println("dsload: starting " + label + " ...");
            long begin = System.nanoTime();
            try {
                Served s = ServedTargets.start(target, folder.placement(label));
                started.add(s);
                console.printf(Locale.ROOT, "dsload: %s ready in %.1f s (pid %s)%n", label,
                        (System.nanoTime() - begin) / 1e9, s.pids());
            } catch (RuntimeException e) {
                if (stopFollows(stopRequested)) {
                    throw session.stoppedWhileStarting(label, e);
                }
                String reason = label + " could not start: " + firstLine(e) + "; its log is in " + folder.dir().resolve(label);
                console.println("dsload: " + reason);
                session.stop(false);
                throw new StartFailure(reason, false, e);
            }
        }
        return session;
    }

    /**
     * Whether a stop was asked for, or is on its way: a Ctrl-C reaches the whole process group, so a
     * process being spawned can die of it (its start fails) a moment before the JVM's own handler of
     * the same signal has run. A start that failed waits that moment before calling it a failure.
     */
    private static boolean stopFollows(BooleanSupplier stopRequested) {
        boolean interrupted = Thread.interrupted();
        try {
            return Deadline.await(stopRequested, SIGNAL_GRACE, java.time.Duration.ofMillis(10));
        } catch (InterruptedException e) {
            // the handler interrupts this thread when it has run: a stop was asked for
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private StartFailure stoppedWhileStarting(String label, RuntimeException cause) {
        Thread.interrupted(); // the stop was asked for: the others stop in order, not killed at once
        String message = "stopped before " + label + " had started";
        console.println("dsload: " + message);
        stop(true);
        return new StartFailure(message, true, cause);
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }

    public List<Served> served() {
        return Collections.unmodifiableList(served);
    }

    public Path folder() {
        return folder.dir();
    }

    /** A target with a process that has ended on its own, or null while all run. */
    public Served lost() {
        return served.stream().filter(s -> s.ended() != null).findFirst().orElse(null);
    }

    @Override
    public void close() {
        stop(true);
    }

    private void stop(boolean clean) {
        List<Served> reverse = new ArrayList<>(served);
        Collections.reverse(reverse);
        boolean allStopped = true;
        for (Served s : reverse) {
            console.println("dsload: stopping " + s.name());
            try {
                s.stopper().close();
            } catch (Exception e) {
                allStopped = false;
                console.println("dsload: " + s.name() + " did not stop cleanly: " + firstLine(e));
            }
        }
        served.clear();
        folder.close(clean && allStopped);
    }
}
