package org.dsload.remote;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.dsload.process.JMeterJvm;
import org.dsload.process.Java;
import org.dsload.process.ManagedProcess;
import org.dsload.process.Ports;
import org.dsload.process.ProcessTree;

/**
 * One jmeter-server process on this machine: started from a JMeter home with its own address
 * ({@code -Djava.rmi.server.hostname}), its own registry and engine ports, its log and console
 * output in a folder of the caller's choosing, and stopped by PID.
 */
public final class SlaveProcess {
    /** The line RemoteJMeterEngineImpl logs once a master can find the engine. */
    static final String READY_LINE = "Bound to RMI registry on port";

    private final SlaveAddress address;
    private final ProcessHandle handle;
    private final Path log;
    private final Path console;

    SlaveProcess(SlaveAddress address, ProcessHandle handle, Path log, Path console) {
        this.address = address;
        this.handle = handle;
        this.log = log;
        this.console = console;
    }

    /** What one slave needs to start. */
    public record Spec(Path jmeterHome, String host, int registryPort, int enginePort, Path logDir, Path workDir,
            RmiSecurity security, String heap, Map<String, String> properties) {
    }

    public static SlaveProcess launch(Spec spec) throws IOException {
        SlaveAddress address = new SlaveAddress(spec.host(), spec.registryPort());
        String name = fileName(address);
        Files.createDirectories(spec.logDir());
        Files.createDirectories(spec.workDir());
        Path log = spec.logDir().resolve(name + ".log").toAbsolutePath();
        Path console = spec.logDir().resolve(name + ".out").toAbsolutePath();
        Properties props = new Properties();
        props.setProperty("server_port", Integer.toString(spec.registryPort()));
        props.setProperty("server.rmi.localport", Integer.toString(spec.enginePort()));
        props.putAll(spec.security().properties());
        props.putAll(spec.properties());
        Path propsFile = spec.logDir().resolve(name + ".properties").toAbsolutePath();
        try (OutputStream out = Files.newOutputStream(propsFile)) {
            props.store(out, "jmeter-server " + address + " (no secrets: the keystore password is in its own file)");
        }
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(JMeterJvm.classData(spec.jmeterHome()));
        command.addAll(JMeterJvm.baseOptions());
        command.addAll(JMeterJvm.heap(spec.heap()));
        // Without it the slave refuses to start on a loopback name, and it is the address RMI hands out.
        command.add("-Djava.rmi.server.hostname=" + spec.host());
        command.add("-jar");
        command.add(JMeterJvm.launcherJar(spec.jmeterHome()).toString());
        command.add("-s");
        command.add("-j");
        command.add(log.toString());
        command.add("-q");
        command.add(propsFile.toString());
        for (Path file : spec.security().propertyFiles()) {
            command.add("-q");
            command.add(file.toString());
        }
        // a session of its own: a Ctrl-C in the terminal reaches the command that started it, which stops it in order
        Process process = new ProcessBuilder(ManagedProcess.detached(command)).directory(spec.workDir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile())).start();
        return new SlaveProcess(address, process.toHandle(), log, console);
    }

    /** A slave started earlier (by another dsload process), found again by its PID. */
    static SlaveProcess attach(SlaveAddress address, ProcessHandle handle, Path log, Path console) {
        return new SlaveProcess(address, handle, log, console);
    }

    static String fileName(SlaveAddress address) {
        return address.host().replaceAll("[^A-Za-z0-9.-]", "_") + "_" + address.port();
    }

    /** Waits until a master can reach the engine; fails with the end of its output if it dies or time runs out. */
    public void awaitReady(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!handle.isAlive()) {
                throw new IOException("jmeter-server " + address + " (pid " + pid() + ") exited while starting; end of "
                        + console + ":\n" + tail(console, 20) + "\nend of " + log + ":\n" + tail(log, 20));
            }
            if (logSays(READY_LINE) && Ports.open(address.host(), address.port(), Duration.ofSeconds(1))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("jmeter-server " + address + " (pid " + pid() + ") not ready after "
                        + timeout.toSeconds() + " s; end of " + log + ":\n" + tail(log, 20));
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for jmeter-server " + address, e);
            }
        }
    }

    private boolean logSays(String text) {
        try {
            return Files.isRegularFile(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then SIGKILL if it is still there after the grace period. */
    public void stop(Duration grace) {
        ProcessTree.stop(handle, grace);
    }

    /** SIGKILL, at once: what a crashed slave looks like to the master. */
    public void kill() {
        ProcessTree.kill(handle);
    }

    public SlaveAddress address() {
        return address;
    }

    public long pid() {
        return handle.pid();
    }

    public ProcessHandle handle() {
        return handle;
    }

    public boolean isAlive() {
        return handle.isAlive();
    }

    public Path log() {
        return log;
    }

    public Path console() {
        return console;
    }
}
