package org.dsload.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

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
     * A signal takes effect when the kernel next schedules its target, which on a busy host is
     * later than kill returns: waits (up to the limit) until every thread of every process shows
     * as stopped.
     */
    public static void awaitStopped(List<ProcessHandle> processes, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle p : processes) {
            while (p.isAlive() && !ProcFs.allThreadsStopped(p.pid()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
    }
}
