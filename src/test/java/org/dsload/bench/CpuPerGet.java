package org.dsload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;

/**
 * What one GET costs the load generator's process in CPU, for the configurations of
 * {@link RedisBenchmark}: the utime + stime of the JMeter (or plain loop) process over a window
 * after a warm-up, divided by the GETs redis-server counted in the same window. Throughput on a
 * shared 2-core machine moves by tens of per cent between runs; CPU per request moves much less,
 * and it is what the recording and the sampler add.
 *
 * <p>{@code -Dbench.props="cpu=a,a0,h,b"} picks the configurations ({@code all}: a, aJ, a0, h, b),
 * {@code rounds=N} repeats them in alternating order, {@code jfr=on} also records a Java Flight
 * Recorder profile (execution and allocation samples) of each window into
 * {@code target/bench-results/cpu-<config>-<round>.jfr} (the figures of such a run include the
 * recorder's own cost). The window is {@code bench.warmup} (default 8) seconds after the
 * process appears, for {@code bench.seconds} (default 12).
 */
final class CpuPerGet {
    private static final Pattern GET_CALLS = Pattern.compile("cmdstat_get:calls=(\\d+)");
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private CpuPerGet() {
    }

    static void run() throws Exception {
        String which = System.getProperty("bench.cpu", "all");
        List<String> order = new ArrayList<>(which.equals("all") || which.equals("on")
                ? List.of("a", "aJ", "a0", "h", "b") : List.of(which.split(",")));
        int threads = Bench.threads("50").get(0);
        int warmup = Bench.warmup(8);
        int seconds = Integer.getInteger("bench.seconds", 12);
        int rounds = Integer.getInteger("bench.rounds", 1);
        boolean jfr = "on".equals(System.getProperty("bench.jfr"));
        int profiles = Integer.getInteger("bench.profiles", 10_000);
        List<String> lines = new ArrayList<>();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            RedisBenchmark.preload(redis, profiles, System.getProperty("bench.values", "100"));
            for (int round = 1; round <= rounds; round++) {
                for (String config : order) {
                    List<String> jvm = jfr ? List.of("-XX:StartFlightRecording=settings=profile,delay=" + warmup
                            + "s,duration=" + seconds + "s,filename=" + Checkout.target()
                            .resolve("bench-results/cpu-" + config + "-" + round + ".jfr")) : List.of();
                    int runSeconds = warmup + seconds + 3;
                    Future<Bench.Row> row = runner.submit(() -> switch (config) {
                        case "a" -> RedisBenchmark.rowsMode(redis, threads, 0, runSeconds, profiles, jvm);
                        case "aJ" -> RedisBenchmark.jmeterDirect(redis, threads, 0, runSeconds, profiles, true, jvm);
                        case "a0" -> RedisBenchmark.jmeterDirect(redis, threads, 0, runSeconds, profiles, false, jvm);
                        case "h" -> RedisBenchmark.histograms(redis, threads, 0, runSeconds, profiles, jvm);
                        case "b" -> RedisBenchmark.plainLoop(redis, threads, 0, runSeconds, profiles, jvm);
                        default -> throw new IllegalArgumentException("unknown configuration " + config);
                    });
                    String line = measure(config, round, redis, warmup, seconds, row);
                    System.out.println(line);
                    lines.add(line);
                    row.get(runSeconds + 240L, TimeUnit.SECONDS);
                }
                java.util.Collections.reverse(order);
            }
        } finally {
            runner.shutdownNow();
        }
        System.out.println();
        System.out.println("CPU of the load generator's process per GET, " + threads + " threads, " + warmup
                + " s after the process started, over " + seconds + " s" + (jfr ? " (with JFR recording)" : "") + ":");
        lines.forEach(System.out::println);
    }

    private static String measure(String config, int round, EmbeddedRedis redis, int warmup, int seconds,
            Future<Bench.Row> row) throws Exception {
        String marker = config.equals("b") ? PlainRedisLoop.class.getName() : "ApacheJMeter";
        long pid = awaitProcess(marker, row);
        TimeUnit.SECONDS.sleep(warmup);
        long ticks0 = cpuTicks(pid);
        long gets0 = getCalls(redis);
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        long ticks1 = cpuTicks(pid);
        long gets1 = getCalls(redis);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        double cpuSeconds = (ticks1 - ticks0) / TICKS_PER_SECOND;
        long gets = gets1 - gets0;
        return String.format(Locale.ROOT, "round %d %-3s %6.2f us CPU per GET, %7.0f GETs/s, %.2f cores", round, config,
                cpuSeconds * 1e6 / Math.max(1, gets), gets / elapsed, cpuSeconds / elapsed);
    }

    /** The pid of the configuration's JVM once it runs (a child of this process or of the runner it started). */
    private static long awaitProcess(String marker, Future<?> row) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (row.isDone()) {
                row.get();
                throw new IllegalStateException("the run ended before its process was seen");
            }
            Optional<ProcessHandle> found = ProcessHandle.current().descendants()
                    .filter(p -> commandLine(p.pid()).contains(marker)).findFirst();
            if (found.isPresent()) {
                return found.get().pid();
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new IllegalStateException("no process running " + marker + " after 60 s");
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return "";
        }
    }

    /** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/pid/stat). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is field 3 (state): utime is field 14, stime field 15
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long getCalls(EmbeddedRedis redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Matcher m = GET_CALLS.matcher(jedis.info("commandstats"));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }
}
