package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.report.Durations;
import org.dsload.report.GeneratorCsv;
import org.dsload.report.LabelStats;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * How closely the generator holds a constant arrival rate of Redis GETs, and what it costs:
 * test-plans/redis-get-rate.jmx (classic thread group + dsload Constant Arrival Rate) and
 * test-plans/redis-get-open-model.jmx (Open Model Thread Group + dsload Open Model Guard), each at
 * every rate, against one embedded redis-server holding 10,000 keys of 100 bytes. Prints, per row,
 * achieved / target rate (from the summary), late and dropped arrivals, raw and corrected p99, and
 * the generator's CPU per 1,000 requests/s (its JVM's CPU from the generator figures, averaged
 * over the readings while the load ran).
 * System properties: {@code bench.rates} (1000,5000,20000), {@code bench.seconds} per row (15),
 * {@code bench.threads} for the classic plan (first value used; 50). With
 * {@code -Dbench.props="in_flight=2x25"} a third row per rate runs the classic plan with 2 threads
 * of 25 requests in flight each.
 */
public final class OpenModelBenchmark {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private OpenModelBenchmark() {
    }

    record Row(String plan, int target, LabelStats get, double coresUsed) {
        String format() {
            double achieved = get.achievedRate();
            double perThousand = achieved <= 0 ? Double.NaN : coresUsed / (achieved / 1000) * 100;
            long p50 = get.latencies().percentile(50);
            long correctedP50 = get.corrected().percentile(50);
            return String.format(Locale.ROOT, "| %-30s | %6d | %9.1f | %7.2f%% | %6d | %7d | %9s | %9s | %7dµs | %9s | %9s | %5.2f | %8.1f%% |",
                    plan, target, achieved, get.achievedRatio() * 100, get.lateArrivals(), get.droppedArrivals(),
                    Durations.format(p50 / 1000.0), Durations.format(correctedP50 / 1000.0), correctedP50 - p50,
                    Durations.format(get.latencies().percentile(99) / 1000.0),
                    Durations.format(get.corrected().percentile(99) / 1000.0), coresUsed, perThousand);
        }
    }

    public static void main(String[] args) throws Exception {
        List<Integer> rates = Bench.ints(System.getProperty("bench.rates", "1000,5000,20000"));
        int seconds = Integer.getInteger("bench.seconds", 15);
        int threads = Bench.threads("50").get(0);
        Bench.applyProps();
        String inFlight = System.getProperty("bench.in_flight");
        List<Row> rows = new ArrayList<>();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            load(redis, 10_000);
            for (int rate : rates) {
                rows.add(run(redis, "redis-get-rate.jmx", "classic + timer", rate, seconds, threads, 1));
                if (inFlight != null) {
                    String[] shape = inFlight.split("x");
                    rows.add(run(redis, "redis-get-rate.jmx", "classic + timer, " + inFlight + " in fl.", rate, seconds,
                            Integer.parseInt(shape[0]), Integer.parseInt(shape[1])));
                }
                rows.add(run(redis, "redis-get-open-model.jmx", "open model + guard", rate, seconds, threads, 1));
            }
        }
        System.out.println();
        System.out.println("Constant-rate Redis GET, " + seconds + " s per row, " + Runtime.getRuntime().availableProcessors()
                + " cores shared by redis-server and the generator; CPU/1k: % of one core per 1,000 requests/s");
        System.out.println("| plan                           | target | achieved  | ratio    | late   | dropped | p50       "
                + "| corr. p50 | corr.-p50 | p99       | corr. p99 | cores | CPU/1k    |");
        System.out.println("|--------------------------------|--------|-----------|----------|--------|---------|-----------"
                + "|-----------|-----------|-----------|-----------|-------|-----------|");
        rows.forEach(r -> System.out.println(r.format()));
    }

    private static void load(EmbeddedRedis redis, int keys) {
        byte[] value = new byte[100];
        java.util.Arrays.fill(value, (byte) 'v');
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline pipe = jedis.pipelined();
            for (int i = 0; i < keys; i++) {
                pipe.set(("key:" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8), value);
            }
            pipe.sync();
        }
    }

    private static Row run(EmbeddedRedis redis, String plan, String name, int rate, int seconds, int threads,
            int inFlight) throws Exception {
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("test-plans").resolve(plan))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId("openmodel-" + rate + "-" + inFlight + "-" + plan)
                .dashboard(false).timeout(Duration.ofSeconds(seconds + 180))
                .property("hosts", redis.address()).property("rate", Integer.toString(rate))
                .property("duration", Integer.toString(seconds)).property("threads", Integer.toString(threads))
                .property("keys", "10000").property("nil_is_failure", "true").property("max_concurrent", "200")
                .property("in_flight", Integer.toString(inFlight))
                .property("warmup", "10");
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException(plan + " at " + rate + "/s failed: " + outcome.problem());
        }
        GeneratorCsv.Engine master = GeneratorCsv.read(outcome.dir()).get(0);
        return new Row(name, rate, outcome.summary().label("GET"), coresUsed(master, outcome.summary().label("GET")));
    }

    /** The JVM's mean CPU, in cores, over the readings taken while samples were starting. */
    private static double coresUsed(GeneratorCsv.Engine master, LabelStats get) {
        long from = get.firstStart() / 1000 + 1;
        long to = get.lastEnd() / 1000;
        double cores = master.last(GeneratorCsv.CORES);
        return master.series(GeneratorCsv.PROCESS_CPU).stream()
                .filter(p -> p.epochSecond() > from && p.epochSecond() <= to)
                .mapToDouble(GeneratorCsv.Point::value).average().orElse(Double.NaN) / 100 * cores;
    }
}
