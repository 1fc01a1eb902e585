package org.dsload.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Signals Java has no call for (SIGSTOP, SIGCONT ...), sent with the system's kill command. */
public final class Signals {
    private static final Duration KILL_COMMAND_LIMIT = Duration.ofSeconds(10);

    private Signals() {
    }

    /** Sends a signal by name (STOP, CONT, TERM, KILL ...). */
    public static void send(long pid, String signal) throws IOException, InterruptedException {
        Commands.Result r = Commands.run(List.of("kill", "-" + signal, Long.toString(pid)), KILL_COMMAND_LIMIT);
        if (r.exit() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed: " + r.output().strip());
        }
    }

    /**
     * SIGSTOP, returning once every thread of the process shows as stopped in /proc; fails when
     * one still runs after the limit. Until then a request that reaches a running thread is
     * answered, so a test that freezes a server must not go on before this returns.
     */
    public static void stopConfirmed(long pid, Duration limit) throws IOException, InterruptedException {
        send(pid, "STOP");
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent() && !awaitStopped(List.of(process.get()), limit)) {
            throw new IllegalStateException("process " + pid + " still has running threads " + limit.toMillis()
                    + " ms after SIGSTOP");
        }
    }

    /**
     * A signal takes effect when the kernel next schedules its target, which on a busy host is
     * later than kill returns: waits (up to the limit) until every thread of every process shows
     * as stopped. Returns whether they all are (a process that ended counts as stopped).
     */
    public static boolean awaitStopped(List<ProcessHandle> processes, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle p : processes) {
            while (p.isAlive() && !ProcFs.allThreadsStopped(p.pid()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
        return processes.stream().noneMatch(p -> p.isAlive() && !ProcFs.allThreadsStopped(p.pid()));
    }
}
