package org.dsload.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A JVM of a test's own, on the test class path, whose first line of output the test reads. */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ChildJvm start(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Java.executable(), "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    String readLine() throws IOException {
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the child JVM ended without a line");
        }
        return line;
    }

    /** Closes its standard input, which these children take as the sign to end. */
    void endInput() throws IOException {
        process.getOutputStream().close();
    }

    Process process() {
        return process;
    }

    @Override
    public void close() {
        ProcessTree.kill(process.toHandle());
    }
}
