package org.dsload.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.process.Java;
import org.dsload.process.ProcessTree;

/**
 * The process driver's CPU and memory hogs: a {@link Hog} JVM of their own, so that their load is
 * the host's and not the load generator's, ended by the revert.
 */
final class Hogs {
    /** How long a hog may take to say it is in place. */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private Hogs() {
    }

    static FaultDriver.Applied cpu(FaultSpec spec, FaultRecord record) throws Exception {
        double share = Quantities.share(spec.param("percent", "50%"));
        int cores = Runtime.getRuntime().availableProcessors();
        Process hog = start(List.of(), "cpu", Double.toString(share), spec.durationMillis());
        record(record, hog);
        return new FaultDriver.Applied(record, String.format(Locale.ROOT,
                "CPU hog pid %d: %d thread(s) busy %.0f %% of the time, %.2f of %d cores", hog.pid(), cores, share * 100,
                share * cores, cores));
    }

    static FaultDriver.Applied memory(FaultSpec spec, FaultRecord record) throws Exception {
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
        Process hog = start(List.of("-Xms32m", "-Xmx" + heapMiB + "m", "-XX:+UseSerialGC"), "memory",
                Long.toString(bytes), spec.durationMillis());
        record(record, hog);
        return new FaultDriver.Applied(record, String.format(Locale.ROOT,
                "memory hog pid %d holds %d MiB (%.0f %% of %d MiB RAM%s)", hog.pid(), bytes >> 20,
                100.0 * bytes / total, total >> 20, bytes < wanted ? "; capped to what was available less 512 MiB" : ""));
    }

    /** The revert: the hog ended, unless it already had (its time ran out, or the PID is another process's now). */
    static String end(FaultRecord record) throws Exception {
        long pid = Long.parseLong(record.require("hog.pid"));
        var hog = ProcessTree.same(pid, record.get("hog.start"));
        if (hog.isEmpty()) {
            return "hog " + pid + " had already ended";
        }
        if (!ProcessTree.kill(hog.get())) {
            throw new IOException("hog " + pid + " did not end after SIGKILL");
        }
        return "hog " + pid + " ended";
    }

    private static Process start(List<String> jvmOptions, String what, String amount, long durationMillis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Java.executable());
        command.addAll(jvmOptions);
        command.addAll(List.of("-Xss256k", "-XX:TieredStopAtLevel=1", "-cp", Java.classPathOf(Hog.class),
                Hog.class.getName(), what, amount, Long.toString(Math.max(60, durationMillis / 1000 + 60))));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Thread waiter = new Thread(() -> {
            try {
                if (!ProcessTree.awaitExit(p.toHandle(), START_LIMIT)) {
                    p.getInputStream().close(); // a hog that never says it is ready ends the read below
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

    private static void record(FaultRecord record, Process hog) {
        record.put("hog.pid", Long.toString(hog.pid())).put("hog.start", ProcessTree.startInstant(hog.pid()));
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
