package org.dsload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * CPU time that a process of a benchmark takes over a window of its steady state, from /proc
 * (utime + stime of the process and of each of its threads): what one request costs the load
 * generator, and which of its threads pays it, against the server's share of the same cores.
 * The window starts {@code skipMillis} after the process is first seen (its JVM start, its
 * connect and its warm-up) and lasts {@code windowMillis}; cost per request is the CPU rate over
 * that window divided by the request rate the benchmark measured.
 */
final class ProcessCpu {
    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

    /** CPU seconds per wall second over the window: the process, its threads by name, and the server. */
    record Usage(double process, Map<String, Double> threads, double server) {
        /** What a request costs, in µs of CPU, at {@code opsPerSecond}. */
        String perRequest(double opsPerSecond) {
            String top = threads.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
                    .limit(6).map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue() * 1e6 / opsPerSecond))
                    .collect(Collectors.joining(", "));
            return String.format(Locale.ROOT, "CPU per request: generator %.1f µs (%.2f cores) [%s], server %.1f µs (%.2f cores)",
                    process * 1e6 / opsPerSecond, process, top, server * 1e6 / opsPerSecond, server);
        }
    }

    private record Reading(long atNanos, long ticks, Map<String, Long> threads, long serverTicks) {
    }

    /** One side of a comparison: what its process's command line holds, and how it is run. */
    record Side(String mark, Callable<Bench.Row> run) {
    }

    /** A round of a comparison: each side's row and what a request cost it. */
    record Round(Bench.Row dsload, Bench.Row loop, String dsloadCost, String loopCost) {
    }

    /**
     * Runs dsload and the reference loop one after the other, the loop first in even rounds so that
     * neither always meets the server fresher, each watched over its measured window (the JVM's
     * start and the client's connect come before the warm-up; a second is spared at the end).
     */
    static Round alternate(int round, long serverPid, int warmup, int seconds, Side dsload, Side loop) throws Exception {
        long skip = (warmup + 3) * 1000L;
        long window = (seconds - 4) * 1000L;
        ProcessCpu loopCpu = null;
        Bench.Row loopRow = null;
        if (round % 2 == 0) {
            loopCpu = new ProcessCpu(loop.mark(), serverPid, skip, window);
            loopRow = loop.run().call();
        }
        ProcessCpu dsloadCpu = new ProcessCpu(dsload.mark(), serverPid, skip, window);
        Bench.Row dsloadRow = dsload.run().call();
        if (loopRow == null) {
            loopCpu = new ProcessCpu(loop.mark(), serverPid, skip, window);
            loopRow = loop.run().call();
        }
        return new Round(dsloadRow, loopRow, dsloadCpu.cost("round " + round + " (a)", dsloadRow),
                loopCpu.cost("round " + round + " (b)", loopRow));
    }

    private final AtomicReference<Usage> usage = new AtomicReference<>();
    private final Thread watcher;

    /**
     * Starts watching for a descendant of this JVM whose command line contains {@code mark}.
     *
     * @param serverPid the server's process, measured over the same window
     */
    ProcessCpu(String mark, long serverPid, long skipMillis, long windowMillis) {
        watcher = new Thread(() -> {
            try {
                long deadline = System.nanoTime() + 120_000_000_000L;
                ProcessHandle target = null;
                while (target == null && System.nanoTime() < deadline) {
                    target = ProcessHandle.current().descendants().filter(p -> commandLine(p.pid()).contains(mark))
                            .findFirst().orElse(null);
                    Thread.sleep(20);
                }
                if (target == null) {
                    return;
                }
                Thread.sleep(skipMillis);
                Reading a = read(target.pid(), serverPid);
                Thread.sleep(windowMillis);
                Reading b = read(target.pid(), serverPid);
                double seconds = (b.atNanos() - a.atNanos()) / 1e9;
                Map<String, Double> byName = new TreeMap<>();
                b.threads().forEach((name, t) -> byName.put(name,
                        (t - a.threads().getOrDefault(name, 0L)) / (double) TICKS_PER_SECOND / seconds));
                usage.set(new Usage((b.ticks() - a.ticks()) / (double) TICKS_PER_SECOND / seconds, byName,
                        (b.serverTicks() - a.serverTicks()) / (double) TICKS_PER_SECOND / seconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException e) {
                System.out.println("no CPU reading of " + mark + ": " + e);
            }
        }, "cpu-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** What a request cost, by the usage over the window and the row's request rate. */
    private String cost(String what, Bench.Row row) throws InterruptedException {
        watcher.join(10_000);
        Usage u = usage.get();
        return what + " " + (u == null ? "no CPU reading (the process ended before its window did)"
                : u.perRequest(row.throughput()));
    }

    private static Reading read(long pid, long serverPid) throws IOException {
        Map<String, Long> threads = threadTicks(pid);
        long now = System.nanoTime();
        return new Reading(now, ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))), threads,
                ticks(Files.readString(Path.of("/proc", Long.toString(serverPid), "stat"))));
    }

    /** utime + stime of each thread of a process, threads of one kind (Thread Group 1-1, s0-io-2) added up under one name. */
    static Map<String, Long> threadTicks(long pid) throws IOException {
        Map<String, Long> threads = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "#");
                    threads.merge(name, ticks(stat), Long::sum);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return threads;
    }

    /** The threads that used the most of {@code cpuTicks}, each with its share, from two readings of {@link #threadTicks}. */
    static String topThreads(Map<String, Long> before, Map<String, Long> after, int count) {
        long total = after.entrySet().stream().mapToLong(e -> e.getValue() - before.getOrDefault(e.getKey(), 0L)).sum();
        return after.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(count)
                .map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), 100.0 * e.getValue() / Math.max(1, total)))
                .collect(Collectors.joining(", "));
    }

    /** The whole command line, which {@link ProcessHandle.Info} cuts short for a long class path. */
    static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return ""; // ended meanwhile
        }
    }

    /** utime + stime (fields 14 and 15 of /proc/<pid>/stat). */
    static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
