package org.dsload.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A process's output, read line by line as it comes, for a test that watches what a command says. */
public final class OutputLines {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private Thread reader;

    private OutputLines() {
    }

    /**
     * Reads the process's output until it ends.
     *
     * @param echo prefix of each line copied to the test's own output, or null for none
     */
    public static OutputLines of(Process process, String echo) {
        OutputLines output = new OutputLines();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.lines.add(line);
                    if (echo != null) {
                        System.out.println(echo + line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "output-of-" + process.pid());
        reader.setDaemon(true);
        output.reader = reader;
        reader.start();
        return output;
    }

    /**
     * Waits until the whole output is read (the process and every child that shares its output
     * have closed it); false when the limit passed first.
     */
    public boolean awaitEnd(Duration limit) throws InterruptedException {
        reader.join(Math.max(1, limit.toMillis()));
        return !reader.isAlive();
    }

    /** The lines so far. */
    public List<String> lines() {
        return lines;
    }

    public String text() {
        return String.join("\n", lines);
    }
}
