package org.dsload.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.dsload.process.ProcessTree;

/**
 * A JMeter process of a run: started in the run folder, its console output copied to a file and
 * to the runner's console line by line, waited for with an optional time limit, and stopped with
 * its descendants (SIGTERM, then SIGKILL after 20 s).
 */
final class JMeterProcess {
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration PUMP_DRAIN = Duration.ofSeconds(10);

    private final Process process;
    private final Thread pump;

    private JMeterProcess(Process process, Thread pump) {
        this.process = process;
        this.pump = pump;
    }

    /** Starts JMeter in the folder, its console output into {@code copy} and onto the console. */
    static JMeterProcess start(List<String> command, Path dir, Path copy, PrintStream console) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 PrintStream file = new PrintStream(Files.newOutputStream(copy), true, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    file.println(line);
                    console.println("  | " + line);
                }
            } catch (IOException e) {
                console.println("dsload: lost JMeter's console output: " + e.getMessage());
            }
        }, "jmeter-output");
        pump.setDaemon(true);
        pump.start();
        return new JMeterProcess(process, pump);
    }

    /** Waits for JMeter to end, at most {@code limit} (null: no limit); true when it ended. */
    boolean await(Duration limit) throws InterruptedException {
        if (limit == null) {
            process.waitFor();
            return true;
        }
        return ProcessTree.awaitExit(process.toHandle(), limit);
    }

    /** Stops JMeter and whatever it started. */
    void stop() {
        ProcessTree.stop(process.toHandle(), STOP_GRACE);
    }

    /** JMeter's exit code, once its console output has been read to the end. */
    int exitCode() throws InterruptedException {
        pump.join(PUMP_DRAIN.toMillis());
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /**
     * Runs a JMeter command that needs no watching (the dashboard from a results file) to its
     * end, its output into a file; stopped past the limit.
     *
     * @return null when it ended with exit code 0, else what went wrong
     */
    static String runToEnd(List<String> command, Path dir, Path output, Duration limit)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!ProcessTree.awaitExit(p.toHandle(), limit)) {
            ProcessTree.stop(p.toHandle(), STOP_GRACE);
            return "it took longer than " + limit.toMinutes() + " minutes; stopped";
        }
        return p.exitValue() == 0 ? null : "it ended with exit code " + p.exitValue();
    }
}
