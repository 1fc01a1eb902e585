package org.dsload.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command with a time limit and returns its exit code and output (stdout and stderr together). */
final class Shell {
    private Shell() {
    }

    record Result(int exit, String output) {
        String firstLine() {
            String t = output.strip();
            int nl = t.indexOf('\n');
            return nl < 0 ? t : t.substring(0, nl).strip();
        }
    }

    static Result run(List<String> command, long timeoutMillis) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(
                new java.io.File("/dev/null"))).start();
        // a command that backgrounds a job keeps the pipe open through it: read in a thread, give up at the limit
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                byte[] buffer = new byte[4096];
                int n;
                var in = p.getInputStream();
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (out) {
                        if (out.length() < 16_384) {
                            out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "dsload-fault-command-output");
        reader.setDaemon(true);
        reader.start();
        if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException("'" + String.join(" ", command) + "' ran past its limit of " + timeoutMillis / 1000
                    + " s and was killed");
        }
        reader.join(2000);
        synchronized (out) {
            return new Result(p.exitValue(), out.toString());
        }
    }

    /** Sends a signal by name (STOP, CONT, TERM, KILL) with the system's kill command. */
    static void signal(long pid, String signal) throws IOException, InterruptedException {
        Result r = run(List.of("kill", "-" + signal, Long.toString(pid)), 10_000);
        if (r.exit() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed: " + r.output().strip());
        }
    }
}
