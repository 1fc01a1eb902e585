package org.dsload.process;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Makes sure the servers this JVM started do not outlive it when it is killed outright (SIGKILL,
 * an out-of-memory kill), when no shutdown hook runs. At the first server, a small JVM is started
 * beside this one ({@link OrphanReaper}) in a session of its own; it learns each server's PID and
 * start time through a pipe, and when the pipe closes (this JVM is gone, however it ended), it
 * stops every server it still knows. Servers stopped in the ordinary way are forgotten first.
 */
public final class Orphans {
    private static Process reaper;
    private static PrintStream toReaper;
    private static boolean unavailable;

    private Orphans() {
    }

    /** Has the server stopped if this JVM dies before it. */
    public static synchronized void watch(ProcessHandle server) {
        if (!started()) {
            return;
        }
        toReaper.println(OrphanReaper.WATCH + server.pid() + " " + ProcessTree.startInstant(server.pid()));
        toReaper.flush();
    }

    /** The server was stopped (or ended) the ordinary way. */
    public static synchronized void forget(long pid) {
        if (toReaper != null) {
            toReaper.println(OrphanReaper.FORGET + pid);
            toReaper.flush();
        }
    }

    /** The reaper's PID, or -1 when none runs. */
    public static synchronized long reaperPid() {
        return reaper != null && reaper.isAlive() ? reaper.pid() : -1;
    }

    private static boolean started() {
        if (toReaper != null && reaper.isAlive()) {
            return true;
        }
        if (unavailable) {
            return false;
        }
        try {
            List<String> command = ManagedProcess.detached(List.of(Java.executable(), "-Xmx16m", "-Xss256k",
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-cp", Java.classPathOf(OrphanReaper.class), OrphanReaper.class.getName(),
                    Long.toString(ProcessHandle.current().pid())));
            reaper = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            toReaper = new PrintStream(reaper.getOutputStream(), true, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            unavailable = true;
            System.err.println("dsload: no orphan reaper (" + e.getMessage() + "): servers started here outlive this "
                    + "process if it is killed with SIGKILL");
            return false;
        }
    }
}
