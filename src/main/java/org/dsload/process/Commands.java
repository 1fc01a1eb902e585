package org.dsload.process;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs a command to its end within a time limit and returns its exit code and output (stdout and stderr together). */
public final class Commands {
    private static final int MAX_OUTPUT = 16_384;

    private Commands() {
    }

    /** How a command ended: its exit code and the first 16 KiB of what it printed. */
    public record Result(int exit, String output) {
        public String firstLine() {
            String t = output.strip();
            int nl = t.indexOf('\n');
            return nl < 0 ? t : t.substring(0, nl).strip();
        }
    }

    public static Result run(List<String> command, Duration limit) throws IOException, InterruptedException {
        return run(command, Map.of(), limit);
    }

    /**
     * Runs the command with these variables added to its environment (the way to hand it a
     * secret: never on its command line, which every user of the machine can read).
     *
     * @throws IOException when it cannot start, or runs past the limit (it and its children are killed then)
     */
    public static Result run(List<String> command, Map<String, String> environment, Duration limit)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        Process p = builder.start();
        // a command that backgrounds a job keeps the pipe open through it: read in a thread, give up at the limit
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> read(p.getInputStream(), out), "dsload-command-output");
        reader.setDaemon(true);
        reader.start();
        if (!ProcessTree.awaitExit(p, limit)) {
            ProcessTree.kill(p.toHandle());
            throw new IOException("'" + String.join(" ", command) + "' ran past its limit of " + limit.toSeconds()
                    + " s and was killed");
        }
        reader.join(2000);
        synchronized (out) {
            return new Result(p.exitValue(), out.toString());
        }
    }

    private static void read(InputStream in, StringBuilder out) {
        try {
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (out) {
                    if (out.length() < MAX_OUTPUT) {
                        out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
