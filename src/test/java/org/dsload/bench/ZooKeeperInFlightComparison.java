package org.dsload.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.dsload.core.Payloads;
import org.dsload.process.JMeterJvm;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedZooKeeper;

/**
 * Requests in flight on ZooKeeper against a plain Curator loop of background gets, back to back on
 * one server: {@code znodes} znodes of 100 bytes, the same number of gets outstanding (dsload: T
 * threads x N in flight of src/test/resources/org/dsload/bench/zk-get.jmx on one shared session,
 * results file written; {@link PlainCuratorGetLoop}: one thread, a semaphore of T x N). Each round
 * runs dsload and the loop (which goes first alternates), each in a JVM of its own with the same
 * heap; throughput and p99 over
 * the measured window, and their ratio.
 *
 * <p>Settings ({@code -Dbench.props="inflight=2x32 rounds=2 znodes=10000 jfr=true"}); {@code
 * bench.seconds} and {@code bench.warmup} as for every benchmark.
 */
final class ZooKeeperInFlightComparison {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final String ROOT = "/bench-zk";

    private ZooKeeperInFlightComparison() {
    }

    static void run() throws Exception {
        String[] parts = System.getProperty("bench.inflight").split("x");
        int rounds = Integer.getInteger("bench.rounds", 2);
        int znodes = Integer.getInteger("bench.znodes", 10_000);
        boolean jfr = Boolean.getBoolean("bench.jfr");
        int threads = Integer.parseInt(parts[0]);
        int perThread = Integer.parseInt(parts[1]);
        int seconds = Integer.getInteger("bench.seconds", 15);
        // JMeter's JVM compiles far more code than the loop's: at 5 s on two busy cores its compiler
        // threads still took up to a fifth of a core in the measured window
        int warmup = Bench.warmup(20);
        List<Bench.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<String> costs = new ArrayList<>();
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.single()) {
            create(zk.connectString(), znodes);
            for (int round = 1; round <= rounds; round++) {
                int r = round;
                ProcessCpu.Round both = ProcessCpu.alternate(round, zk.node(0).pid(), warmup, seconds,
                        new ProcessCpu.Side("ApacheJMeter", () -> dsload(zk, threads, perThread, znodes, warmup, seconds,
                                r, jfr)),
                        new ProcessCpu.Side(PlainCuratorGetLoop.class.getSimpleName(), () -> reference(zk,
                                threads * perThread, znodes, warmup, seconds)));
                Bench.Row dsload = both.dsload();
                Bench.Row loop = both.loop();
                costs.add(both.dsloadCost());
                costs.add(both.loopCost());
                ratios.add(dsload.throughput() / loop.throughput());
                rows.add(dsload);
                rows.add(loop);
                lines.add(String.format(Locale.ROOT, "round %d: throughput %.3fx, p99 %.2fx of the plain Curator loop",
                        round, dsload.throughput() / loop.throughput(), (double) dsload.p99Micros() / loop.p99Micros()));
            }
        }
        System.out.println();
        System.out.println("ZooKeeper get, " + znodes + " znodes of 100 B, " + threads * perThread
                + " requests outstanding, " + warmup + " s warm-up then " + seconds + " s measured per row, "
                + Runtime.getRuntime().availableProcessors() + " cores shared by ZooKeeper and the load generator");
        System.out.print(Bench.table(rows));
        lines.forEach(System.out::println);
        costs.forEach(System.out::println);
        System.out.println(Bench.medianRatio("dsload / plain Curator loop, throughput", ratios));
    }

    private static void create(String connect, int znodes) throws Exception {
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(3, 100))) {
            zk.start();
            zk.blockUntilConnected(30, TimeUnit.SECONDS);
            zk.create().forPath(ROOT);
            Semaphore permits = new Semaphore(200);
            java.util.SplittableRandom random = new java.util.SplittableRandom(1);
            for (int i = 0; i < znodes; i++) {
                permits.acquire();
                zk.create().inBackground((c, e) -> permits.release()).forPath(ROOT + "/n" + i, Payloads.of(100, random));
            }
            if (!permits.tryAcquire(200, 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("creating the znodes did not end");
            }
        }
    }

    private static Bench.Row dsload(EmbeddedZooKeeper zk, int threads, int perThread, int znodes, int warmup,
            int seconds, int round, boolean jfr) throws Exception {
        String id = "zk-inflight-" + threads + "x" + perThread + "-" + round;
        PlanRun run = new PlanRun(Checkout.jmeterHome(), Checkout.basedir().resolve("src/test/resources/org/dsload/bench/zk-get.jmx"))
                .resultsRoot(Checkout.target().resolve("bench-results")).runId(id)
                .dashboard(false).timeout(Duration.ofSeconds(warmup + seconds + 180)).jvmArgs(JMeterJvm.heap("1g"))
                .property("hosts", zk.connectString()).property("threads", Integer.toString(threads))
                .property("in_flight", Integer.toString(perThread)).property("duration", Integer.toString(warmup + seconds))
                .property("znodes", Integer.toString(znodes)).property("root", ROOT);
        if (jfr) {
            Checkout.target().resolve("bench-results").toFile().mkdirs();
            run.jvmArgs(List.of("-Xms1g", "-Xmx1g", "-XX:StartFlightRecording=filename="
                    + Checkout.target().resolve("bench-results/" + id + ".jfr") + ",settings=profile", "-XX:FlightRecorderOptions:stackdepth=256"));
        }
        PlanRunner.Outcome outcome = new PlanRunner(QUIET).run(run);
        if (!outcome.ok()) {
            throw new IllegalStateException("JMeter run failed: " + outcome.problem());
        }
        return Bench.measured("(a) dsload " + threads + " threads x " + perThread + " in flight", threads * perThread,
                outcome.jtl(), Set.of("get"), warmup, seconds);
    }

    private static Bench.Row reference(EmbeddedZooKeeper zk, int inFlight, int znodes, int warmup, int seconds)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JMeterJvm.heap("1g"));
        // Curator makes a logger per call; log4j's default context selector walks the stack for each,
        // a cost JMeter's logging set-up does not have: the reference is not to pay it either
        command.add("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.BasicContextSelector");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PlainCuratorGetLoop.class.getName(),
                zk.connectString(), ROOT, Integer.toString(znodes), Integer.toString(inFlight), Integer.toString(warmup),
                Integer.toString(seconds)));
        return Bench.plainLoopRow("(b) Curator background gets, " + inFlight + " permits", inFlight,
                Bench.command(command, warmup + seconds + 120L));
    }
}
