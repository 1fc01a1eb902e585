package org.dsload.chaos;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Process faults on the engine's own host, without root and without other tools: signals to the
 * node's process (SIGKILL, SIGSTOP/SIGCONT, SIGTERM), starting it again with its start command,
 * CPU and memory hogs in a JVM of their own ({@link Hog}), and a disk filled with a file in the
 * node's data directory. Remote hosts are the command driver's.
 */
public final class ProcessDriver implements FaultDriver {
    public static final String NAME = "process";
    /** Disk full refuses to fill more than this unless the fault says max=...: it is for small dedicated volumes. */
    static final long DEFAULT_MAX_FILL = 4L << 30;
    private static final long EXIT_WAIT_MS = 30_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean supports(FaultKind kind) {
        return !kind.network();
    }

    @Override
    public Applied apply(FaultSpec spec) throws Exception {
        Target t = spec.target();
        FaultRecord record = new FaultRecord(spec.id(), spec.label(), spec.kind().id(), t.name(), NAME);
        for (String key : List.of("start", "pidfile", "log", "host", "port", "dir")) {
            record.put("target." + key, t.get(key));
        }
        record.put("ready_timeout_ms", Long.toString(spec.settings().readyTimeoutMillis()));
        return switch (spec.kind()) {
            case KILL -> kill(t, record);
            case PAUSE -> pause(t, record);
            case RESTART -> restart(t, record, spec.settings().readyTimeoutMillis());
            case CPU -> cpu(spec, record);
            case MEMORY -> memory(spec, record);
            case DISK -> disk(spec, record);
            default -> throw new IllegalArgumentException("the process driver has no " + spec.kind().id() + " fault");
        };
    }

    private Applied kill(Target t, FaultRecord record) throws Exception {
        long pid = t.pid();
        List<ProcessHandle> tree = tree(alive(pid, t));
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : tree) {
            awaitExit(p, EXIT_WAIT_MS);
        }
        String closed = awaitPortClosed(t);
        record.put("pid", Long.toString(pid));
        return new FaultDriver.Applied(record, "SIGKILL " + pid + ", process gone" + closed
                + (t.get("start") == null ? "; no start= command, so the revert cannot start it again" : ""));
    }

    private static final long STOP_WAIT_MILLIS = 5000;

    private Applied pause(Target t, FaultRecord record) throws Exception {
        long pid = t.pid();
        List<ProcessHandle> tree = tree(alive(pid, t));
        for (ProcessHandle p : tree) {
            Shell.signal(p.pid(), "STOP");
        }
        awaitStopped(tree, STOP_WAIT_MILLIS);
        record.put("pid", Long.toString(pid)).put("pid.start", startInstant(pid))
                .put("pid.tree", String.join(",", tree.stream().map(p -> Long.toString(p.pid())).toList()));
        return new FaultDriver.Applied(record, "SIGSTOP " + record.get("pid.tree"));
    }

    /**
     * A signal takes effect when the kernel next schedules its target, which on a busy host is
     * later than the call returns: the fault is in force only once every process shows as stopped.
     */
    private static void awaitStopped(List<ProcessHandle> tree, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        for (ProcessHandle p : tree) {
            while (p.isAlive() && !stopped(p.pid()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
    }

    /** The state letter of /proc/<pid>/stat is T (stopped by a signal); false where there is no /proc. */
    private static boolean stopped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'T';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    private Applied restart(Target t, FaultRecord record, long readyMillis) throws Exception {
        t.require("start", "a restart needs the command that starts the node");
        long pid = t.pid();
        for (ProcessHandle process : tree(alive(pid, t))) {
            process.destroy();
            if (!awaitExit(process, EXIT_WAIT_MS)) {
                process.destroyForcibly();
                awaitExit(process, 10_000);
            }
        }
        awaitPortClosed(t);
        long newPid = start(record, readyMillis);
        record.put("restarted", "true");
        return new FaultDriver.Applied(record, "SIGTERM " + pid + ", started again as " + newPid + portReady(record));
    }

    private Applied cpu(FaultSpec spec, FaultRecord record) throws Exception {
        double share = Quantities.share(spec.param("percent", "50%"));
        int cores = Runtime.getRuntime().availableProcessors();
        Process hog = hog(List.of(), "cpu", Double.toString(share), spec.durationMillis());
        hogRecord(record, hog);
        return new FaultDriver.Applied(record, String.format(Locale.ROOT,
                "CPU hog pid %d: %d thread(s) busy %.0f %% of the time, %.2f of %d cores", hog.pid(), cores, share * 100,
                share * cores, cores));
    }

    private Applied memory(FaultSpec spec, FaultRecord record) throws Exception {
        double share = Quantities.share(spec.param("percent", "50%"));
        long total = memInfo("MemTotal");
        long available = memInfo("MemAvailable");
        long wanted = (long) (total * share);
        // never push the host into the OOM killer: keep 512 MiB of what is available
        long bytes = Math.min(wanted, Math.max(0, available - (512L << 20)));
        if (bytes < (16L << 20)) {
            throw new IllegalStateException("only " + (available >> 20) + " MiB of memory are available; a memory hog "
                    + "would leave the host nothing");
        }
        long heapMiB = (bytes >> 20) + 128;
        Process hog = hog(List.of("-Xms32m", "-Xmx" + heapMiB + "m", "-XX:+UseSerialGC"), "memory",
                Long.toString(bytes), spec.durationMillis());
        hogRecord(record, hog);
        return new FaultDriver.Applied(record, String.format(Locale.ROOT,
                "memory hog pid %d holds %d MiB (%.0f %% of %d MiB RAM%s)", hog.pid(), bytes >> 20,
                100.0 * bytes / total, total >> 20, bytes < wanted ? "; capped to what was available less 512 MiB" : ""));
    }

    private Applied disk(FaultSpec spec, FaultRecord record) throws IOException {
        Path dir = Path.of(spec.target().require("data", "disk full fills the filesystem of the node's data directory"));
        if (!Files.isDirectory(dir)) {
            throw new IOException("data directory " + dir + " of target '" + spec.target().name() + "' does not exist");
        }
        FileStore store = Files.getFileStore(dir);
        long reserve = Quantities.bytes(spec.param("reserve", "0"));
        long max = Quantities.bytes(spec.param("max", Long.toString(DEFAULT_MAX_FILL)));
        long usable = store.getUsableSpace();
        if (usable - reserve > max) {
            throw new IllegalStateException(String.format(Locale.ROOT, "the filesystem of %s has %d MiB free, more than "
                    + "the %d MiB disk full fills (max=...): put the node's data on a small dedicated volume (a "
                    + "size-limited tmpfs or loop device), never fill a host's main disk", dir, usable >> 20, max >> 20));
        }
        Path file = dir.resolve("dsload-disk-full-" + spec.id() + ".fill");
        record.put("fill.file", file.toString());
        long written = fill(file, usable - reserve);
        long left = store.getUsableSpace();
        return new FaultDriver.Applied(record, String.format(Locale.ROOT, "filled %s with %d MiB; %d KiB left on %s",
                file, written >> 20, left >> 10, store.name()));
    }

    /** Writes zeros until the filesystem is full (or the limit is reached), in large then small blocks. */
    private static long fill(Path file, long limit) throws IOException {
        long written = 0;
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int block : new int[] {1 << 20, 4096, 512}) {
                byte[] zeros = new byte[block];
                try {
                    while (written + block <= limit) {
                        out.write(zeros);
                        written += block;
                    }
                    out.flush();
                } catch (IOException full) {
                    // no space left for a block this size: try smaller ones
                }
            }
        } catch (IOException closeFull) {
            // the last partial buffer found no room; the space is used up either way
        }
        return written;
    }

    @Override
    public String revert(FaultRecord record) throws Exception {
        String kind = record.require(FaultRecord.KIND);
        switch (FaultKind.parse(kind)) {
            case KILL -> {
                if (record.get("target.start") == null) {
                    return "left down: the target has no start= command";
                }
                long pid = start(record, Long.parseLong(record.get("ready_timeout_ms") == null ? "240000"
                        : record.get("ready_timeout_ms")));
                return "started again as " + pid + portReady(record);
            }
            case PAUSE -> {
                long pid = Long.parseLong(record.require("pid"));
                if (!sameProcess(pid, record.get("pid.start"))) {
                    return "process " + pid + " is gone; nothing to resume";
                }
                String tree = record.get("pid.tree") == null ? Long.toString(pid) : record.get("pid.tree");
                for (String each : tree.split(",")) {
                    if (ProcessHandle.of(Long.parseLong(each)).map(ProcessHandle::isAlive).orElse(false)) {
                        Shell.signal(Long.parseLong(each), "CONT");
                    }
                }
                return "SIGCONT " + tree;
            }
            case RESTART -> {
                return "nothing to undo";
            }
            case CPU, MEMORY -> {
                long pid = Long.parseLong(record.require("hog.pid"));
                if (!sameProcess(pid, record.get("hog.start"))) {
                    return "hog " + pid + " had already ended";
                }
                ProcessHandle hog = ProcessHandle.of(pid).orElseThrow();
                hog.destroyForcibly();
                if (!awaitExit(hog, 10_000)) {
                    throw new IOException("hog " + pid + " did not end after SIGKILL");
                }
                return "hog " + pid + " ended";
            }
            case DISK -> {
                Path file = Path.of(record.require("fill.file"));
                long size = Files.exists(file) ? Files.size(file) : 0;
                Files.deleteIfExists(file);
                return "deleted " + file + " (" + (size >> 20) + " MiB freed)";
            }
            default -> throw new IllegalArgumentException("the process driver has no " + kind + " fault");
        }
    }

    /** Starts the node with its start command, detached from this process's session, and records its pid. */
    static long start(FaultRecord record, long readyMillis) throws IOException, InterruptedException {
        String start = record.require("target.start");
        List<String> command = new ArrayList<>();
        if (new File("/usr/bin/setsid").canExecute() || new File("/bin/setsid").canExecute()) {
            command.add("setsid"); // a Ctrl-C to the load generator's terminal must not reach the node
        }
        // exec: the pid recorded is the node's own, not a shell's that would outlive nothing
        command.addAll(List.of("sh", "-c", start.matches("[^;&|()<>`$]*") && !start.startsWith("exec ") ? "exec " + start : start));
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        String log = record.get("target.log");
        File out = log != null ? new File(log) : new File("/dev/null");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out));
        String dir = record.get("target.dir");
        if (dir != null) {
            builder.directory(new File(dir));
        }
        Process p = builder.start();
        String pidfile = record.get("target.pidfile");
        if (pidfile != null) {
            Files.writeString(Path.of(pidfile), p.pid() + "\n", StandardCharsets.UTF_8);
        }
        record.put("started.pid", Long.toString(p.pid()));
        String host = record.get("target.host");
        String port = record.get("target.port");
        if (host != null && port != null) {
            long deadline = System.currentTimeMillis() + readyMillis;
            while (!portOpen(host, Integer.parseInt(port))) {
                if (!p.isAlive()) {
                    throw new IOException("'" + start + "' exited with code " + p.exitValue() + " before " + host + ":" + port
                            + " accepted connections" + (log != null ? "; see " + log : ""));
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("started '" + start + "' (pid " + p.pid() + "), but " + host + ":" + port
                            + " did not accept connections within " + readyMillis / 1000 + " s");
                }
                Thread.sleep(200);
            }
        }
        return p.pid();
    }

    private static String portReady(FaultRecord record) {
        String host = record.get("target.host");
        String port = record.get("target.port");
        return host != null && port != null ? ", " + host + ":" + port + " accepts connections" : "";
    }

    /**
     * A process and its descendants: a pid file may name a wrapper (a shell, a
     * launcher script) whose child is the node; a signal to the wrapper alone would miss it.
     */
    private static List<ProcessHandle> tree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        java.util.Collections.reverse(all);
        all.add(root); // the node before its wrapper
        return all;
    }

    private static ProcessHandle alive(long pid, Target t) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            throw new IllegalStateException("process " + pid + " of target '" + t.name() + "' is not running");
        }
        return h.get();
    }

    private static boolean awaitExit(ProcessHandle process, long millis) throws InterruptedException {
        try {
            process.onExit().get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return !process.isAlive();
        }
    }

    private static String awaitPortClosed(Target t) throws InterruptedException {
        String host = t.get("host");
        String port = t.get("port");
        if (host == null || port == null) {
            return "";
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (portOpen(host, Integer.parseInt(port))) {
            if (System.currentTimeMillis() > deadline) {
                return ", but " + host + ":" + port + " still accepts connections";
            }
            Thread.sleep(100);
        }
        return ", " + host + ":" + port + " closed";
    }

    static boolean portOpen(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Process hog(List<String> jvmOptions, String what, String amount, long durationMillis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Xss256k", "-XX:TieredStopAtLevel=1", "-cp", classPath(), Hog.class.getName(), what,
                amount, Long.toString(Math.max(60, durationMillis / 1000 + 60))));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Thread waiter = new Thread(() -> {
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.getInputStream().close();
                }
            } catch (InterruptedException | IOException e) {
                // the hog answered in time
            }
        });
        waiter.setDaemon(true);
        waiter.start();
        String line;
        StringBuilder said = new StringBuilder();
        while ((line = out.readLine()) != null && !line.equals(Hog.READY)) {
            said.append(line).append(' ');
        }
        if (line == null) {
            p.destroyForcibly();
            throw new IOException("the " + what + " hog did not start: " + said.toString().strip());
        }
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // keep the pipe from filling
                }
            } catch (IOException e) {
                // the hog ended
            }
        }, "dsload-hog-output");
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    private static void hogRecord(FaultRecord record, Process hog) {
        record.put("hog.pid", Long.toString(hog.pid())).put("hog.start", startInstant(hog.pid()));
    }

    /** The class path that holds {@link Hog}: the dsload jar, or the classes folder in a build. */
    private static String classPath() throws IOException {
        try {
            return Path.of(Hog.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot find the jar holding " + Hog.class.getName() + ": " + e);
        }
    }

    private static String startInstant(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(Instant::toString).orElse(null);
    }

    /** A pid whose process is alive and started when recorded (a pid reused by the system is left alone). */
    private static boolean sameProcess(long pid, String recordedStart) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return false;
        }
        return recordedStart == null || h.get().info().startInstant().map(Instant::toString).map(recordedStart::equals)
                .orElse(true);
    }

    /** A figure of /proc/meminfo in bytes, or the JVM's view of physical memory where there is none. */
    static long memInfo(String key) throws IOException {
        Path meminfo = Path.of("/proc/meminfo");
        if (Files.isReadable(meminfo)) {
            for (String line : Files.readAllLines(meminfo, StandardCharsets.US_ASCII)) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return key.equals("MemTotal") ? os.getTotalMemorySize() : os.getFreeMemorySize();
    }
}
