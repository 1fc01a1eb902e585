package org.dsload.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.targets.Checkout;
import org.dsload.testing.HostRig;
import org.dsload.testing.RigCluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a long link between master and slaves costs a run: ekv-profile-get.jmx on two slaves of a
 * {@link RigCluster} (store, master and slaves as hosts of their own, firewalls on), each slave's
 * link to the master delayed 0 ms and then 50 ms each way (a 100 ms round trip), in rows mode (every
 * sample a row the slave sends to the master, JMeter's StrippedBatch sender: a batch of 100 rows
 * sent by the sampler thread that filled it) and in histograms mode (one row per label and second,
 * sent at most once a second). Closed loop, one request per thread at a time: each thread's time per
 * sample is threads / throughput, so the difference between the delayed and the direct run is the
 * link's cost per sample. The order of the two delays alternates from round to round.
 *
 * <pre>./mvnw verify -Pbenchmark -Dbench.class=LinkDelayCost [-Dbench.seconds=10 -Dbench.threads=2 -Dbench.props="rounds=2 delay_ms=50"]</pre>
 */
public final class LinkDelayCost {
    private LinkDelayCost() {
    }

    private record Result(String mode, int delayMs, long requests, double throughput, double p50Ms, double p99Ms,
            double wallSeconds, int exit) {
    }

    public static void main(String[] args) throws Exception {
        Bench.applyProps();
        int rounds = Integer.getInteger("bench.rounds", 2);
        int seconds = Integer.getInteger("bench.seconds", 10);
        int threads = Integer.getInteger("bench.threads", 2);
        int delayMs = Integer.getInteger("bench.delay_ms", 50);
        HostRig.require();
        Path work = Checkout.target().resolve("bench-results").resolve("link-delay-" + System.currentTimeMillis());
        List<Result> results = new ArrayList<>();
        try (RigCluster cluster = RigCluster.start(2, work)) {
            boolean delayedFirst = false;
            for (int round = 0; round < rounds; round++) {
                for (String mode : List.of("rows", "histograms")) {
                    for (int side = 0; side < 2; side++) {
                        int delay = (side == 0) == delayedFirst ? delayMs : 0;
                        results.add(run(cluster, mode, delay, threads, seconds, round));
                    }
                }
                delayedFirst = !delayedFirst;
            }
        }
        int engines = 2;
        System.out.println();
        System.out.printf(Locale.ROOT, "ekv-profile-get.jmx, 2 slaves x %d threads, one request at a time, %d s; the master-"
                + "slave links delayed 0 or %d ms each way (%d cores shared by every host)%n", threads, seconds, delayMs,
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-11s %6s %10s %12s %9s %9s %9s %5s %16s%n", "mode", "delay", "requests", "requests/s",
                "p50 ms", "p99 ms", "wall s", "exit", "thread us/sample");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "%-11s %4d ms %10d %12.0f %9.3f %9.3f %9.1f %5d %16.1f%n", r.mode(), r.delayMs(),
                    r.requests(), r.throughput(), r.p50Ms(), r.p99Ms(), r.wallSeconds(), r.exit(),
                    1e6 * engines * threads / r.throughput());
        }
        for (String mode : List.of("rows", "histograms")) {
            double direct = mean(results, mode, 0);
            double delayed = mean(results, mode, delayMs);
            System.out.printf(Locale.ROOT, "%s: %.0f requests/s direct, %.0f over %d ms links (%.3f x): each sample costs its "
                    + "thread %.1f us more%n", mode, direct, delayed, delayMs, delayed / direct,
                    1e6 * engines * threads * (1 / delayed - 1 / direct));
        }
    }

    private static double mean(List<Result> results, String mode, int delay) {
        return results.stream().filter(r -> r.mode().equals(mode) && r.delayMs() == delay).mapToDouble(Result::throughput)
                .average().orElse(Double.NaN);
    }

    private static Result run(RigCluster cluster, String mode, int delayMs, int threads, int seconds, int round)
            throws Exception {
        List<HostRig.LinkDelay> delays = new ArrayList<>();
        RigCluster.Run run;
        long start = System.nanoTime();
        try {
            if (delayMs > 0) {
                for (HostRig.Host slave : cluster.slaves()) {
                    delays.add(slave.delay(cluster.master().address(), Duration.ofMillis(delayMs), Duration.ZERO));
                }
            }
            run = cluster.run(mode + "-" + delayMs + "-" + round, "--record", mode, "--no-dashboard",
                    "-Jthreads=" + threads, "-Jduration=" + seconds, "-Jrampup=0",
                    "-Jserver_gauges=false");
        } finally {
            for (HostRig.LinkDelay d : delays) {
                d.close();
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        if (run.folder() == null || !Files.isRegularFile(run.folder().resolve("summary.json"))) {
            throw new IllegalStateException("the run made no summary:\n" + run.output());
        }
        JsonNode label = new ObjectMapper().readTree(run.folder().resolve("summary.json").toFile()).path("total");
        JsonNode latency = label.path("latencyMs");
        return new Result(mode, delayMs, label.path("requests").asLong(), label.path("throughput").asDouble(),
                latency.path("p50").asDouble(), latency.path("p99").asDouble(), wall, run.exit());
    }
}
