package org.dsload.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.dsload.core.format.RunProperties;
import org.dsload.live.MetricsFetch;
import org.dsload.process.Ports;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

/**
 * What the live metrics cost: test-plans/ekv-profile-get.jmx with requests in flight against a
 * redis-server, run alternately with the metrics endpoint off and on (scraped every second by a
 * client in this JVM, as Prometheus would), the same length each; prints each run's GETs per second
 * in its measured window, the ratio on/off of each round (the side that runs first alternates from
 * round to round), their median and range (the goal: 0.98 or more), and how far the runs of each
 * side differ among themselves: the machine's noise, against which the ratio's spread is read. With
 * {@code pin=true} the generator runs on CPU 0 and redis-server on CPU 1 (taskset), both sides alike:
 * on 2 shared cores a run's throughput otherwise hangs on where the scheduler puts the busy threads.
 * With {@code together=true} the two sides run at the same time instead, each against a redis-server of
 * its own and each with its server on a core of its own (the cores swap from round to round): both
 * sides meet the same state of the machine, whose drift from one run to the next is otherwise wider
 * than the cost sought. To tell the counting from the scrapes: {@code scrape=false} serves the
 * endpoint without fetching it, {@code scrape_every=<ms>} fetches it less often than every second.
 *
 * <pre>./mvnw verify -Pbenchmark -Dbench.class=LiveMetricsOverhead [-Dbench.seconds=15 -Dbench.threads=2 -Dbench.props="rounds=5 in_flight=16 pin=true warmup=3 together=true scrape=false scrape_every=1000"]</pre>
 */
public final class LiveMetricsOverhead {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The CPU the scrapers of all runs spent, this JVM's, which lands on the cores the sides use. */
    private static final AtomicLong SCRAPER_CPU_NANOS = new AtomicLong();

    private LiveMetricsOverhead() {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        int rounds = Integer.getInteger("bench.rounds", 5);
        int seconds = Integer.getInteger("bench.seconds", 15);
        int threads = Integer.getInteger("bench.threads", 2);
        int inFlight = Integer.getInteger("bench.in_flight", 16);
        boolean pin = Boolean.getBoolean("bench.pin");
        int warmup = Bench.warmup(3);
        if (Boolean.getBoolean("bench.together")) {
            together(rounds, seconds, threads, inFlight, warmup);
            return;
        }
        if (pin) {
            // this JVM and the JMeter JVMs it starts on CPU 0; the redis-server, once started, on CPU 1
            Bench.pin(ProcessHandle.current().pid(), "0");
        }
        List<Bench.Row> rows = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        AtomicLong scrapes = new AtomicLong();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            if (pin) {
                Bench.pin(redis.pid(), "1");
            }
            InFlightCapacity.load(redis, 10_000);
            boolean onFirst = false;
            for (int round = 0; round < rounds; round++) {
                Bench.Row off = null;
                Bench.Row on = null;
                for (int side = 0; side < 2; side++) {
                    boolean metrics = (side == 0) == onFirst;
                    Bench.Row row = run(redis, metrics, threads, inFlight, warmup, seconds, round, scrapes);
                    rows.add(row);
                    if (metrics) {
                        on = row;
                    } else {
                        off = row;
                    }
                }
                onFirst = !onFirst;
                ratios.add(on.throughput() / off.throughput());
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Redis GETs, %d threads x %d in flight, %d s measured after %d s per run, %d cores"
                + " %s; endpoint %s (%d scrapes in all)%n", threads,
                inFlight, seconds, warmup, Runtime.getRuntime().availableProcessors(),
                pin ? "(JMeter pinned to CPU 0, redis-server to CPU 1)" : "shared by redis-server and JMeter", scrapedHow(),
                scrapes.get());
        System.out.print(Bench.table(rows));
        System.out.println(Bench.medianRatio("requests/s with the endpoint on and scraped / off", ratios));
        printRounds(rows, ratios, scrapes.get());
    }

    /** How the side with the endpoint is fetched, as the tables say it. */
    private static String scrapedHow() {
        if ("false".equals(System.getProperty("bench.scrape"))) {
            return "served, never fetched";
        }
        long every = Long.getLong("bench.scrape_every", 1000);
        return every == 1000 ? "scraped every second" : "scraped every " + every + " ms";
    }

    private static void printRounds(List<Bench.Row> rows, List<Double> ratios, long scrapes) {
        if (scrapes > 0) {
            System.out.printf(Locale.ROOT, "the scraper's own CPU (this JVM's, on the machine the sides share): %.2f ms"
                    + " per scrape%n", SCRAPER_CPU_NANOS.get() / 1e6 / scrapes);
        }
        System.out.println("ratio on/off by round: " + ratios.stream().map(r -> String.format(Locale.ROOT, "%.3f", r))
                .toList());
        // the machine's own noise, to judge the ratio's spread by: runs of the same side against one another
        for (String side : List.of("endpoint on", "endpoint off")) {
            List<Double> rates = rows.stream().filter(r -> r.tool().startsWith(side)).map(Bench.Row::throughput).toList();
            double min = rates.stream().mapToDouble(Double::doubleValue).min().orElse(0);
            double max = rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            System.out.printf(Locale.ROOT, "%s: %d runs, %.0f to %.0f requests/s (the fastest %.1f %% above the slowest)%n",
                    side, rates.size(), min, max, min > 0 ? 100 * (max / min - 1) : 0);
        }
    }

    /**
     * Both sides at once, round after round: side "on" with its redis-server on one CPU, side "off"
     * with its own on the other, each JMeter JVM pinned beside its server; the CPUs swap each round.
     */
    private static void together(int rounds, int seconds, int threads, int inFlight, int warmup) throws Exception {
        List<Bench.Row> rows = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        AtomicLong scrapes = new AtomicLong();
        try (EmbeddedRedis first = EmbeddedRedis.start(); EmbeddedRedis second = EmbeddedRedis.start()) {
            List<EmbeddedRedis> servers = List.of(first, second);
            for (int cpu = 0; cpu < 2; cpu++) {
                Bench.pin(servers.get(cpu).pid(), Integer.toString(cpu));
                InFlightCapacity.load(servers.get(cpu), 10_000);
            }
            for (int round = 0; round < rounds; round++) {
                int onCpu = round % 2;
                ExecutorService sides = Executors.newFixedThreadPool(2);
                try {
                    Future<Bench.Row> on = start(sides, servers.get(onCpu), onCpu, true, threads, inFlight, warmup,
                            seconds, round, scrapes);
                    Future<Bench.Row> off = start(sides, servers.get(1 - onCpu), 1 - onCpu, false, threads, inFlight,
                            warmup, seconds, round, scrapes);
                    rows.add(on.get());
                    rows.add(off.get());
                    ratios.add(on.get().throughput() / off.get().throughput());
                } finally {
                    sides.shutdownNow();
                }
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Redis GETs, %d threads x %d in flight, %d s measured after %d s per run, both sides"
                + " at once: each JMeter beside its own redis-server on a CPU of its own, the CPUs swapped each round;"
                + " endpoint scraped %d times in all%n", threads, inFlight, seconds, warmup, scrapes.get());
        System.out.print(Bench.table(rows));
        System.out.println(Bench.medianRatio("requests/s with the endpoint on and scraped / off, at the same time", ratios));
        printRounds(rows, ratios, scrapes.get());
    }

    /** Starts one side's run and returns once its JMeter JVM is pinned to {@code cpu}. */
    private static Future<Bench.Row> start(ExecutorService sides, EmbeddedRedis redis, int cpu, boolean metrics,
            int threads, int inFlight, int warmup, int seconds, int round, AtomicLong scrapes) throws Exception {
        Set<Long> before = ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
        Future<Bench.Row> row = sides.submit(() -> run(redis, metrics, threads, inFlight, warmup, seconds, round, scrapes));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<Long> started = ProcessHandle.current().descendants().map(ProcessHandle::pid)
                    .filter(pid -> !before.contains(pid)).toList();
            if (!started.isEmpty()) {
                for (long pid : started) {
                    Bench.pin(pid, Integer.toString(cpu));
                }
                return row;
            }
            if (row.isDone()) {
                row.get();
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no JMeter JVM started within 30 s");
    }

    private static Bench.Row run(EmbeddedRedis redis, boolean metrics, int threads, int inFlight, int warmup, int seconds,
            int round, AtomicLong scraped) throws Exception {
        int port = metrics ? Ports.free() : 0;
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans/ekv-profile-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results"))
                .runId("live-" + (metrics ? "on" : "off") + "-" + round).dashboard(false)
                .timeout(Duration.ofSeconds(seconds + 240)).property("hosts", redis.address())
                .property("threads", Integer.toString(threads)).property("in_flight", Integer.toString(inFlight))
                .property("duration", Integer.toString(warmup + seconds)).property("profiles", "10000")
                .property("load_threads", "0").property("rampup", "0").property(RunProperties.PROGRESS, "off");
        Thread scraper = null;
        AtomicBoolean running = new AtomicBoolean(true);
        if (metrics) {
            Ports.release(port);
            run.property(RunProperties.METRICS_PORT, Integer.toString(port)).property(RunProperties.METRICS_LINGER, "0");
            if (!"false".equals(System.getProperty("bench.scrape"))) {
                scraper = new Thread(() -> scrape(port, running, scraped), "bench-scraper");
                scraper.setDaemon(true);
                scraper.start();
            }
        }
        PlanRunner.Outcome outcome;
        try {
            outcome = new PlanRunner(QUIET).run(run);
        } finally {
            running.set(false);
            if (scraper != null) {
                scraper.join(5000);
            }
        }
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        return Bench.measured(metrics ? "endpoint on, " + scrapedHow() : "endpoint off", threads, outcome.jtl(),
                Set.of("GET profile"), warmup, seconds);
    }

    /**
     * GETs /metrics every second while the run goes on as Prometheus does (OpenMetrics, gzip), over one
     * kept-alive connection ({@link MetricsFetch}); refused connections (before and after the test) pass.
     * Its CPU is this JVM's, which the scheduler tends to run on the CPU of the side it reads from (the
     * one that woke it): the JDK's HttpClient used here spent 28 ms of CPU per scrape of a 21 KB reply,
     * 2.8 % of a core at a scrape a second, more than the cost sought; read this way, 0.34-0.45 ms a scrape.
     */
    private static void scrape(int port, AtomicBoolean running, AtomicLong scraped) {
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long mine = 0;
        boolean served = false;
        MetricsFetch get = null;
        while (running.get()) {
            try {
                if (get == null) {
                    get = new MetricsFetch(port, 2000);
                }
                get.fetch();
                scraped.incrementAndGet();
                mine++;
                served = true;
            } catch (IOException e) {
                // not serving yet, or no more
                MetricsFetch.close(get);
                get = null;
            }
            try {
                // scrape_every (ms, 1000): how often once it serves; a long one (600000) scrapes once, early
                Thread.sleep(served ? Long.getLong("bench.scrape_every", 1000) : 1000);
            } catch (InterruptedException e) {
                break;
            }
        }
        MetricsFetch.close(get);
        if (mine > 0) {
            SCRAPER_CPU_NANOS.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuBefore);
        }
    }
}
