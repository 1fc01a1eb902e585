package org.dsload.serve;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.process.Deadline;
import org.dsload.process.ManagedProcess;
import org.dsload.process.ProcessTree;
import org.dsload.targets.Checkout;
import org.dsload.testing.DsloadProcess;
import org.dsload.testing.OutputLines;

/**
 * {@code bin/dsload serve ...} run as a user runs it, its output read line by line: the -J
 * properties it prints for each target, and the processes it started.
 */
final class ServeProcess implements AutoCloseable {
    private static final Pattern TARGET_LINE = Pattern.compile("^([a-z0-9-]+): ((?:-J\\S+=\\S+ ?)+)\\s+\\((.*)\\)$");
    private static final String SERVING = "dsload: serving until";
    private static final Pattern EXPORT_LINE = Pattern.compile("^  first: export (\\w+)=\"\\$\\(cat (\\S+)\\)\".*$");

    private final Process process;
    private final List<String> lines;

    private ServeProcess(Process process) {
        this.process = process;
        this.lines = OutputLines.of(process, "  serve " + process.pid() + " | ").lines();
    }

    /** Starts bin/dsload serve with these arguments; {@code javaOptions} reach its JVM through JAVA_TOOL_OPTIONS. */
    static ServeProcess withJavaOptions(String javaOptions, String... args) throws IOException {
        return start(javaOptions, List.of(), args);
    }

    static ServeProcess start(String... args) throws IOException {
        return withJavaOptions(null, args);
    }

    /**
     * Starts bin/dsload serve as a terminal does, in a session of its own (so that a Ctrl-C can be
     * sent to its process group), through {@code wrapper}: a command that ends by running the
     * arguments that follow its own (bin/dsload serve ...) in its place, or none.
     */
    static ServeProcess start(String javaOptions, List<String> wrapper, String... args) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(Checkout.basedir().resolve("bin/dsload").toString());
        command.add("serve");
        command.addAll(List.of(args));
        // setsid and the wrapper exec in place, and bin/dsload execs its JVM: the PID is the JVM's
        ProcessBuilder builder = new ProcessBuilder(ManagedProcess.detached(command)).redirectErrorStream(true);
        if (javaOptions != null) {
            builder.environment().put("JAVA_TOOL_OPTIONS", javaOptions);
        }
        return new ServeProcess(builder.start());
    }

    /** Waits until it serves (true) or has ended (false). */
    boolean awaitServing(Duration limit) throws InterruptedException {
        Deadline.await(() -> serving() || !process.isAlive(), limit, Duration.ofMillis(100));
        return serving();
    }

    private boolean serving() {
        return lines.stream().anyMatch(l -> l.startsWith(SERVING));
    }

    /** The -J properties printed for each target, by the target's name. */
    Map<String, Map<String, String>> targets() {
        Map<String, Map<String, String>> targets = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = TARGET_LINE.matcher(line);
            if (m.matches()) {
                Map<String, String> properties = new LinkedHashMap<>();
                for (String option : m.group(2).trim().split(" ")) {
                    int eq = option.indexOf('=');
                    properties.put(option.substring(2, eq), option.substring(eq + 1));
                }
                targets.put(m.group(1), properties);
            }
        }
        return targets;
    }

    /** The environment variables the printed properties refer to ({@code env:NAME}) and the files serve said hold them. */
    Map<String, Path> secrets() {
        Map<String, Path> secrets = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = EXPORT_LINE.matcher(line);
            if (m.matches()) {
                secrets.put(m.group(1), Path.of(m.group(2)));
            }
        }
        return secrets;
    }

    /** The PIDs serve printed for a target as it became ready: {@code dsload: <label> ready in 1.2 s (pid 1, 2)}. */
    List<Long> pids(String label) {
        for (String line : lines) {
            if (line.startsWith("dsload: " + label + " ready in ")) {
                String pids = line.replaceAll("^.*\\(pid ([0-9, ]+)\\)$", "$1");
                return java.util.Arrays.stream(pids.split(", ")).map(Long::parseLong).toList();
            }
        }
        throw new IllegalStateException(label + " has no ready line:\n" + output());
    }

    /** host:port of every server a target's properties name. */
    static List<String> addresses(Map<String, String> properties) {
        List<String> addresses = new ArrayList<>();
        if (properties.containsKey("hosts")) {
            addresses.addAll(List.of(properties.get("hosts").split(",")));
        }
        if (properties.containsKey("urls")) {
            URI url = URI.create(properties.get("urls"));
            addresses.add(url.getHost() + ":" + url.getPort());
        }
        if (properties.containsKey("influx_port")) {
            addresses.add(properties.get("influx_host") + ":" + properties.get("influx_port"));
        }
        return addresses;
    }

    /** The folder the serve said it keeps data and logs in. */
    String folder() {
        return lines.stream().filter(l -> l.startsWith("dsload: data and logs in ")).findFirst()
                .map(l -> l.substring("dsload: data and logs in ".length()).replaceFirst(" \\(.*\\)$", "")).orElseThrow();
    }

    /** The processes whose command line names the folder: the servers serve started there. */
    static List<ProcessHandle> runningIn(String folder) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(folder)).orElse(false))
                .toList();
    }

    /** The processes serve started (its servers and their watcher), as they are now. */
    List<ProcessHandle> children() {
        return process.descendants().toList();
    }

    String output() {
        return String.join("\n", lines);
    }

    Process process() {
        return process;
    }

    /** Whether a line of its output so far contains the text. */
    boolean said(String text) {
        return lines.stream().anyMatch(l -> l.contains(text));
    }

    /** Waits until a line contains the text (true) or serve has ended (false). */
    boolean awaitLine(String text, Duration limit) throws InterruptedException {
        Deadline.await(() -> said(text) || !process.isAlive(), limit, Duration.ofMillis(100));
        return said(text);
    }

    /** Ctrl-C in its terminal, and its exit code once it has stopped its servers. */
    int ctrlC(Duration limit) throws IOException, InterruptedException {
        DsloadProcess.ctrlC(process.pid());
        return awaitExit(limit, "Ctrl-C");
    }

    /** SIGTERM, and its exit code once it has stopped its servers. */
    int terminate(Duration limit) throws InterruptedException {
        process.toHandle().destroy(); // the JVM itself, not the bash of bin/dsload: bin/dsload execs it
        return awaitExit(limit, "SIGTERM");
    }

    private int awaitExit(Duration limit, String signal) throws InterruptedException {
        if (!ProcessTree.awaitExit(process, limit)) {
            throw new IllegalStateException("serve did not end within " + limit.toSeconds() + " s of " + signal + ":\n"
                    + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        ProcessTree.kill(process.toHandle());
    }
}
