package org.dsload.plans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.jmeter.samplers.SampleResult;
import org.dsload.cassandra.CassandraConnection;
import org.dsload.cassandra.CassandraSampler;
import org.dsload.cli.ExitCodes;
import org.dsload.process.Signals;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedCassandra;
import org.dsload.targets.EmbeddedKairosDb;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.targets.EmbeddedInfluxDb;
import org.dsload.testing.JMeterRuntime;
import org.dsload.testing.Prerequisites;
import org.dsload.testing.SharedCassandra;
import org.dsload.testing.SharedKairosDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each store kind killed (SIGKILL) and frozen (SIGSTOP) while shipped plans run on it, as a user
 * runs them: for each fault, one run sends one request per sample and one keeps requests in flight,
 * both against the same server at once. Whatever the store does, a dead one costs a few failed
 * requests per thread (or place in flight) and second, the results file stays small, and the run
 * says when the store stopped answering and ends with exit code 5 (0 when the run expected it).
 * The CQL Request sampler, which no shipped plan loads with, is sampled in this JVM while the
 * Cassandra node is dead.
 *
 * <p>A killed store's runs give up on it ({@value #GIVE_UP} s without a success) long before their
 * planned end: they end on that condition, however late the kill comes, so the kill tests hold on a
 * busy machine and run beside other test JVMs. A frozen store must be back while its runs still go
 * on. Where each run has a server of its own (Redis, InfluxDB, ZooKeeper, KairosDB), each server is
 * frozen once its own run's load reached it, so that its freeze ends seconds before that run's
 * planned end however late the other run's JMeter started: those freeze tests run beside other test
 * JVMs too. Where both runs share the server (Cassandra, whose second node would cost another node's
 * start), the freeze waits for both runs' load, a race with the earlier run's planned end that a busy
 * machine can lose (a JMeter JVM that starts seconds after the other delays the fault): that freeze
 * test runs alone.
 */
@Timeout(600)
@ExtendWith({SharedCassandra.class, SharedKairosDb.class})
class DeadStoreIT {
    /** Failed requests per place and second at most: the back-off's first second costs about 7, each next one 1. */
    private static final double BOUNDED = 10;
    /** How long a frozen store stays frozen: longer than the request timeouts the runs are given. */
    private static final Duration FROZEN = Duration.ofSeconds(5);
    /** Seconds without a success after which a killed store's runs give up on it. */
    private static final String GIVE_UP = "4";
    /**
     * The planned length of a run whose store is killed: far more than the kill needs (the run gives
     * up {@value #GIVE_UP} s after it), so that a late kill still finds the run going on.
     */
    private static final String KILLED_RUN_SECONDS = "40";

    private static Path results(String name) throws IOException {
        return Files.createDirectories(Checkout.target().resolve("test-results").resolve("dead-store-" + name + "-"
                + System.nanoTime()));
    }

    /** A run that met the fault: its failures bounded, a small results file, the verdict and its exit code. */
    private static void assertStoreFailed(FaultedRun run, long faultMillis, String expectedCode) throws Exception {
        assertStoreFailed(run, faultMillis, expectedCode, false);
    }

    /** @param killed the store stayed dead: the failures, not the load before, make most of the results file */
    private static void assertStoreFailed(FaultedRun run, long faultMillis, String expectedCode, boolean killed)
            throws Exception {
        assertEquals(ExitCodes.STORE_FAILED, run.exitCode(), run.output());
        FaultedRun.Failures failures = run.failuresSince(faultMillis);
        System.out.println("dsload: " + run.dir().getFileName() + ": " + failures + ", results file "
                + run.resultsBytes() + " B");
        assertTrue(failures.failed() > 0, "the fault was met: " + failures);
        assertTrue(failures.perPlaceSecond() <= BOUNDED, failures.toString());
        if (killed) {
            assertTrue(run.resultsBytes() < 3_000_000, "a small results file: " + run.resultsBytes() + " B");
        }
        String summary = run.summary();
        assertTrue(summary.contains("Run FAILED, the store failed: the store failed during the run:\n  no request "
                + "succeeded from "), summary);
        assertTrue(summary.matches("(?s).*no request succeeded from \\d\\d:\\d\\d:\\d\\d \\(\\d+(\\.\\d)? s into the "
                + "run\\) to .*% of the run\\): all \\d+ failed \\(.*" + expectedCode + ".*"), summary);
        assertTrue(run.output().contains("dsload: the store failed during the run; why is said above"), run.output());
    }

    /**
     * The server's own count was not read after it died: the cross-check says so rather than take the
     * count of its last poll before the kill.
     */
    private static void assertNotCountedOnceDead(FaultedRun run) throws IOException {
        String summary = run.summary();
        assertTrue(summary.matches("(?s).*\\nCross-check +\\[[^\\n]*\\] +\\d+, [^\\n]*not counted: [^\\n]*down since .*"),
                summary);
    }

    /** The server was back when the load ended: the cross-check counts with its count after the load. */
    private static void assertCountedOnceBack(FaultedRun run) throws IOException {
        String summary = run.summary();
        assertTrue(summary.matches("(?s).*\\nCross-check +\\[[^\\n]*\\] +\\d+, \\d+ \\((match|differ by \\d+|within: )[^\\n]*.*"),
                summary);
    }

    /** The run ended on the store's death: it gave up on it rather than run to its planned end. */
    private static void assertGaveUp(FaultedRun run) throws IOException {
        assertTrue(run.output().contains("dsload: no request succeeded for " + GIVE_UP + " s (since "), run.output());
        assertTrue(run.summary().contains("so the test stopped early at "), run.summary());
    }

    /** A fault of the store: a kill, or a freeze and its end. */
    @FunctionalInterface
    private interface Fault {
        void apply() throws Exception;
    }

    /**
     * Applies the fault once both runs' load has reached the store ({@code rows} successful rows
     * each), and waits for both runs to end before either is judged, so that a failed assertion
     * leaves no run to kill.
     *
     * @return when the fault began, epoch ms
     */
    private static long fault(FaultedRun a, FaultedRun b, int rows, Fault fault) throws Exception {
        a.awaitLoad(rows);
        b.awaitLoad(rows);
        long at = System.currentTimeMillis();
        fault.apply();
        a.exitCode();
        b.exitCode();
        return at;
    }

    /**
     * Applies each run's own fault once that run's load has reached its store ({@code rows} successful
     * rows), each run apart from the other, and waits for both runs to end before either is judged.
     *
     * @return when each fault began, epoch ms: {@code a}'s, then {@code b}'s
     */
    private static long[] faultEach(int rows, FaultedRun a, Fault onA, FaultedRun b, Fault onB) throws Exception {
        java.util.concurrent.ExecutorService faults = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<Long> atA = faults.submit(() -> faultOnce(a, rows, onA));
            java.util.concurrent.Future<Long> atB = faults.submit(() -> faultOnce(b, rows, onB));
            long[] at = {outcome(atA), outcome(atB)};
            a.exitCode();
            b.exitCode();
            return at;
        } finally {
            faults.shutdownNow();
        }
    }

    private static long faultOnce(FaultedRun run, int rows, Fault fault) throws Exception {
        run.awaitLoad(rows);
        long at = System.currentTimeMillis();
        fault.apply();
        return at;
    }

    private static long outcome(java.util.concurrent.Future<Long> fault) throws Exception {
        try {
            return fault.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** SIGSTOP for the fault's planned length, then SIGCONT, of one server or several at once. */
    private static Fault freeze(long... pids) {
        return () -> {
            try {
                for (long pid : pids) {
                    Signals.stopConfirmed(pid, Duration.ofSeconds(10));
                }
                Thread.sleep(FROZEN.toMillis());
            } finally {
                for (long pid : pids) {
                    Signals.send(pid, "CONT");
                }
            }
        };
    }

    private static Fault freeze(Runnable pause, Runnable resume) {
        return () -> {
            pause.run();
            try {
                Thread.sleep(FROZEN.toMillis());
            } finally {
                resume.run();
            }
        };
    }

    @Test
    void redisKilledCostsFewFailuresOnBothPathsAndFailsTheRuns() throws Exception {
        Path results = results("redis-kill");
        // a server for each run, so that each run's cross-check counts its own commands; the fault hits both
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             EmbeddedRedis other = EmbeddedRedis.start();
             FaultedRun blocking = FaultedRun.start(results, "redis-get-rate.jmx", "GET", 4, "-Jhosts=" + redis.address(),
                     "-Jduration=" + KILLED_RUN_SECONDS, "--give-up-after", GIVE_UP, "-Jrate=400", "-Jwarmup=0",
                     "-Jthreads=4", "-Jin_flight=1", "-Jnil_is_failure=false");
             FaultedRun inFlight = FaultedRun.start(results, "redis-ycsb.jmx", "READ", 2 * 8, "-Jhosts=" + other.address(),
                     "-Jduration=" + KILLED_RUN_SECONDS, "--give-up-after", GIVE_UP, "-Jthreads=2", "-Jin_flight=8",
                     "-Jrecordcount=200", "-Jload_threads=2")) {
            long killed = fault(blocking, inFlight, 50, () -> {
                Signals.send(redis.pid(), "KILL");
                Signals.send(other.pid(), "KILL");
            });
            assertStoreFailed(blocking, killed, "JedisConnectionException", true);
            assertStoreFailed(inFlight, killed, "ConnectException", true);
            assertNotCountedOnceDead(blocking);
            assertNotCountedOnceDead(inFlight);
            assertGaveUp(blocking);
            assertGaveUp(inFlight);
            assertTrue(blocking.summary().contains("scheduled arrivals went unsent: "), blocking.summary());
            assertTrue(blocking.summary().matches("(?s).*Arrivals +\\[total, late, dropped\\] +\\d+, \\d+, [1-9]\\d*\n.*"),
                    "the arrivals due while the threads backed off are dropped: " + blocking.summary());
            java.util.regex.Matcher rate = java.util.regex.Pattern.compile("Rate +\\[target, achieved, ratio\\] +([\\d.]+),")
                    .matcher(blocking.summary());
            assertTrue(rate.find() && Math.abs(Double.parseDouble(rate.group(1)) - 400) <= 100,
                    "the dropped arrivals count in the schedule's rate: " + blocking.summary());
        }
    }

    @Test
    void redisFrozenCostsFewFailuresOnBothPathsAndARunThatExpectedItEndsWell() throws Exception {
        Path results = results("redis-freeze");
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             EmbeddedRedis other = EmbeddedRedis.start();
             // the blocking run ends at its operation count, seconds before its planned end: at full speed it ran
             // 3,000 to 8,000 operations a second beside other test JVMs and 19,000 alone, at most 1,220 of them before
             // its freeze. 30,000 are 4 to 10 s of its load beside other JVMs (it ran 45,000 in the 9 s after the freeze)
             // and 1.5 s alone: the freeze finds it at work unless it comes 1.5 s late with the machine to itself
             FaultedRun blocking = FaultedRun.start(results, "redis-ycsb.jmx", "READ", 4, "-Jhosts=" + redis.address(),
                     "-Jduration=14", "-Joperations=30000", "-Jthreads=4", "-Jin_flight=1", "-Jrecordcount=200",
                     "-Jload_threads=2", "-Jsocket_timeout=1000");
             FaultedRun inFlight = FaultedRun.start(results, "redis-get-rate.jmx", "GET", 2 * 8, "-Jhosts=" + other.address(),
                     "-Jduration=14", "-Jrate=400", "-Jwarmup=0", "-Jthreads=2", "-Jin_flight=8", "-Jnil_is_failure=false",
                     "-Jsocket_timeout=1000", "--expect-faults")) {
            // each server frozen once its own run's load reached it: see the class comment
            long[] frozen = faultEach(50, blocking, freeze(redis.pid()), inFlight, freeze(other.pid()));
            assertStoreFailed(blocking, frozen[0], "JedisConnectionException");
            assertCountedOnceBack(blocking);
            assertCountedOnceBack(inFlight);
            assertEquals(ExitCodes.OK, inFlight.exitCode(), inFlight.output());
            FaultedRun.Failures failures = inFlight.failuresSince(frozen[1]);
            assertTrue(failures.failed() > 0 && failures.perPlaceSecond() <= BOUNDED, failures.toString());
            assertTrue(inFlight.summary().contains("\nExpected during the run:\n  no request succeeded from "),
                    inFlight.summary());
            assertTrue(inFlight.summary().contains("(expected: dsload.expect_faults)"), inFlight.summary());
        }
    }

    @Test
    void cassandraKilledCostsFewFailuresOnBothYcsbPaths() throws Exception {
        EmbeddedCassandra node = SharedCassandra.node();
        Path results = results("cassandra-kill");
        JMeterRuntime.freshVariables();
        CassandraConnection session = new CassandraConnection();
        session.setName("cassandra");
        session.setVariableName("cassandra");
        session.setContactPoints(node.address());
        session.setRequestTimeout("1000");
        session.testStarted();
        CassandraSampler cql = new CassandraSampler();
        cql.setName("cql");
        cql.setStatement("SELECT release_version FROM system.local");
        long[] cqlFailed = new long[1];
        try (YcsbRuns runs = YcsbRuns.start(results, node, "dead", KILLED_RUN_SECONDS, "--give-up-after", GIVE_UP)) {
            try {
                assertTrue(cql.sample(null).isSuccessful(), "the CQL Request sampler reaches the node");
                long killed = fault(runs.blocking, runs.inFlight, 50, () -> {
                    node.kill();
                    // the CQL Request sampler, one statement per sample, on this thread while the runs go on
                    long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                    while (System.nanoTime() < end) {
                        SampleResult r = cql.sample(null);
                        if (r != null && !r.isSuccessful()) {
                            cqlFailed[0]++;
                        }
                    }
                });
                System.out.println("dsload: CQL Request, one thread, node dead for 3 s: " + cqlFailed[0] + " failed samples");
                assertTrue(cqlFailed[0] >= 1 && cqlFailed[0] <= 3 * BOUNDED, cqlFailed[0] + " failed samples in 3 s");
                assertStoreFailed(runs.blocking, killed, "NoNodeAvailableException", true);
                assertStoreFailed(runs.inFlight, killed, "NoNodeAvailableException", true);
                assertNotCountedOnceDead(runs.blocking);
                assertNotCountedOnceDead(runs.inFlight);
                assertGaveUp(runs.blocking);
                assertGaveUp(runs.inFlight);
            } finally {
                session.testEnded();
                if (!node.isRunning()) {
                    node.restart();
                }
            }
        }
    }

    @Test
    @org.junit.jupiter.api.Tag("alone") // the store must be back before the runs' planned end: see the class comment
    void cassandraFrozenCostsFewFailuresOnBothYcsbPaths() throws Exception {
        EmbeddedCassandra node = SharedCassandra.node();
        Path results = results("cassandra-freeze");
        try (YcsbRuns runs = YcsbRuns.start(results, node, "frozen", "14")) {
            long frozen = fault(runs.blocking, runs.inFlight, 50, freeze(node::pause, node::resume));
            assertStoreFailed(runs.blocking, frozen, "");
            assertStoreFailed(runs.inFlight, frozen, "");
            assertCountedOnceBack(runs.blocking);
            assertCountedOnceBack(runs.inFlight);
        }
    }

    /**
     * cassandra-ycsb.jmx twice on the node: 4 threads of one operation, 2 threads of 8 in flight, each its
     * keyspace; both read the node's gauges and cross-check their counts with them.
     */
    private record YcsbRuns(FaultedRun blocking, FaultedRun inFlight) implements AutoCloseable {
        /** @param seconds the runs' planned length; @param more options of both runs */
        static YcsbRuns start(Path results, EmbeddedCassandra node, String name, String seconds, String... more)
                throws IOException {
            FaultedRun blocking = FaultedRun.start(results, "cassandra-ycsb.jmx", "READ", 4,
                    args(node, name + "_blocking", "1", "4", seconds, more));
            return new YcsbRuns(blocking, FaultedRun.start(results, "cassandra-ycsb.jmx", "READ", 2 * 8,
                    args(node, name + "_in_flight", "8", "2", seconds, more)));
        }

        private static String[] args(EmbeddedCassandra node, String keyspace, String inFlight, String threads,
                String seconds, String... more) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-Jhosts=" + node.address(),
                    "-Jkeyspace=" + keyspace, "-Jduration=" + seconds, "-Jthreads=" + threads, "-Jin_flight=" + inFlight,
                    "-Jrecordcount=200", "-Jload_threads=2", "-Jrequest_timeout=1000", "-Jserver_gauges=true",
                    "-Jconsistency=ONE",
                    // the 1 s request timeout is for the fault; the load phase before it, on a node the other test
                    // JVMs share, once had an insert wait longer, and a load that stops there never meets the
                    // fault: YCSB's insertion retries, as cassandra-monkey.jmx has them
                    "-Jinsertion_retry_limit=3", "-Jinsertion_retry_interval=1"));
            args.addAll(java.util.List.of(more));
            return args.toArray(String[]::new);
        }

        @Override
        public void close() {
            try (FaultedRun b = blocking) {
                inFlight.close();
            }
        }
    }

    @Test
    void zookeeperKilledCostsFewFailuresAndTheRunsGiveUpEarly() throws Exception {
        Path results = results("zk-kill");
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.single();
             FaultedRun blocking = FaultedRun.start(results, "zk-latencies.jmx", "Create", 2, zk(zk, "blocking", "1",
                     KILLED_ZNODES, "--give-up-after", GIVE_UP, "-Jzk_gauges=true"));
             FaultedRun inFlight = FaultedRun.start(results, "zk-latencies.jmx", "Create", 2 * 8, zk(zk, "in-flight", "8",
                     KILLED_ZNODES, "--give-up-after", GIVE_UP, "-Jzk_gauges=true"))) {
            long killed = fault(blocking, inFlight, 50, () -> zk.kill(zk.node(0)));
            assertStoreFailed(blocking, killed, "CONNECTIONLOSS", true);
            // requests in flight when the server died time out; those sent after it fail at once
            assertStoreFailed(inFlight, killed, "(CONNECTIONLOSS|REQUESTTIMEOUT)", true);
            for (FaultedRun run : new FaultedRun[] {blocking, inFlight}) {
                assertGaveUp(run);
                assertNotCountedOnceDead(run);
            }
        }
    }

    @Test
    void zookeeperFrozenCostsFewFailuresOnBothPaths() throws Exception {
        Path results = results("zk-freeze");
        // a server for each run, each frozen once its own run's load reached it: see the class comment
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.single();
             EmbeddedZooKeeper other = EmbeddedZooKeeper.single();
             FaultedRun blocking = FaultedRun.start(results, "zk-latencies.jmx", "Create", 2, zk(zk, "blocking", "1",
                     FROZEN_ZNODES, "-Jzk_gauges=true")).answeredWith("NONODE");
             FaultedRun inFlight = FaultedRun.start(results, "zk-latencies.jmx", "Create", 2 * 8, zk(other, "in-flight", "8",
                     4 * FROZEN_ZNODES, "-Jzk_gauges=true")).answeredWith("NONODE")) {
            long[] frozen = faultEach(50, blocking, freeze(zk.node(0).pid()), inFlight, freeze(other.node(0).pid()));
            assertStoreFailed(blocking, frozen[0], "");
            assertStoreFailed(inFlight, frozen[1], "");
            // the server's per-namespace counters count each run's requests in its own root
            assertCountedOnceBack(blocking);
            assertCountedOnceBack(inFlight);
        }
    }

    /**
     * Znodes of each run whose server is killed: more than either run makes before the kill, however late the
     * other run's JMeter starts (the runs give up once the server is dead).
     */
    private static final int KILLED_ZNODES = 40_000;

    /**
     * Znodes of the blocking run whose server is frozen. The run in flight gets four times as many, as it makes about
     * four times the requests a second (5,000 against 1,400 while both run), so that each run's plan (7 requests a
     * znode and client: 11,200 and 44,800) lasts about as long, some 10 s besides the freeze. Each run's server is
     * frozen once that run's load reached it, so a run must hold more than the requests it makes before its first
     * results reach the results file. When both runs shared one server frozen once both loads had reached it, the
     * run in flight once made 8,900 requests before the fault, a fifth of its 44,800, while the other JMeter JVM
     * started 3.9 s after it. With 2,000 and 8,000 znodes the runs took 29 to 32 s.
     */
    private static final int FROZEN_ZNODES = 800;

    /** The runs' options. */
    private static String[] zk(EmbeddedZooKeeper zk, String root, String inFlight, int znodes, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-Jhosts=" + zk.connectString(),
                "-Jclients=2", "-Jznodes=" + znodes, "-Jwatches=10", "-Jzk_root=/dead-store-" + root, "-Jin_flight=" + inFlight,
                "-Jsession_timeout=4000", "-Jconnection_timeout=1000", "-Jrequest_timeout=1000", "-Jzk_retries=0",
                "-Jzk_cleanup=false"));
        args.addAll(java.util.List.of(more));
        if (args.stream().noneMatch(a -> a.startsWith("-Jzk_gauges="))) {
            args.add("-Jzk_gauges=false");
        }
        return args.toArray(String[]::new);
    }

    @Test
    void kairosDbFrozenCostsFewFailuresOnBothPaths() throws Exception {
        EmbeddedKairosDb kairos = SharedKairosDb.server();
        Path results = results("kairosdb");
        // a server for each run, each frozen once its own run's load reached it (see the class comment); both runs
        // count their points back: the writes that timed out while KairosDB was frozen are stored once it runs
        // again, and the count back must not take them for a difference
        try (EmbeddedKairosDb other = EmbeddedKairosDb.start();
             FaultedRun blocking = FaultedRun.start(results, "kairosdb-write.jmx", "write batch", 4, kairos(kairos, "1",
                "4", "14", "blocking")).countPerRequest(POINTS);
             FaultedRun inFlight = FaultedRun.start(results, "kairosdb-write.jmx", "write batch", 2 * 4, kairos(other,
                     "4", "2", "14", "in-flight")).countPerRequest(POINTS)) {
            long[] frozen = faultEach(20, blocking, freeze(kairos::pause, kairos::resume), inFlight,
                    freeze(other::pause, other::resume));
            assertStoreFailed(blocking, frozen[0], "");
            assertStoreFailed(inFlight, frozen[1], "");
            assertCountedOnceBack(blocking);
            assertCountedOnceBack(inFlight);
        }
    }

    @Test
    void kairosDbKilledCostsFewFailuresOnBothPaths() throws Exception {
        EmbeddedKairosDb kairos = SharedKairosDb.server();
        Path results = results("kairosdb-kill");
        try (FaultedRun blocking = FaultedRun.start(results, "kairosdb-write.jmx", "write batch", 4, kairos(kairos, "1",
                "4", KILLED_RUN_SECONDS, "blocking", "--give-up-after", GIVE_UP)).countPerRequest(POINTS);
             FaultedRun inFlight = FaultedRun.start(results, "kairosdb-write.jmx", "write batch", 2 * 4, kairos(kairos,
                     "4", "2", KILLED_RUN_SECONDS, "in-flight", "--give-up-after", GIVE_UP)).countPerRequest(POINTS)) {
            try {
                long killed = fault(blocking, inFlight, 20, () -> Signals.send(kairos.pid(), "KILL"));
                assertStoreFailed(blocking, killed, "ConnectException", true);
                assertStoreFailed(inFlight, killed, "ConnectException", true);
                assertNotCountedOnceDead(blocking);
                assertNotCountedOnceDead(inFlight);
                assertGaveUp(blocking);
                assertGaveUp(inFlight);
            } finally {
                if (!kairos.isRunning()) {
                    kairos.restart();
                }
            }
        }
    }

    /** Points per KairosDB batch: a results row counts a batch's points. */
    private static final int POINTS = 10;

    /**
     * The run's options; it reads the server's gauges and counts the points written back.
     *
     * @param seconds the run's planned length
     * @param metrics the run's own metric names, so that a count back finds its points alone
     */
    private static String[] kairos(EmbeddedKairosDb kairos, String inFlight, String threads, String seconds,
            String metrics, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-Jurls=" + kairos.url(),
                "-Jthreads=" + threads, "-Jin_flight=" + inFlight, "-Jpaced=false", "-Jramp_step=0", "-Jbatch=" + POINTS,
                "-Jmetrics=10", "-Jrepeats=100000", "-Jduration=" + seconds, "-Jresponse_timeout=1000",
                "-Jcross_check=true", "-Jserver_gauges=true", "-Jmetric_name=dsload.dead." + metrics + ".#{m}"));
        args.addAll(java.util.List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void influxDbKilledCostsFewFailuresAndTheMissedArrivalsAreCounted() throws Exception {
        try (InfluxRuns runs = InfluxRuns.start("KILL", KILLED_RUN_SECONDS, "--give-up-after", GIVE_UP)) {
            long killed = fault(runs.oneAtATime, runs.inFlight, 200, () -> {
                Signals.send(runs.influx.pid(), "KILL");
                Signals.send(runs.other.pid(), "KILL");
            });
            for (FaultedRun run : new FaultedRun[] {runs.oneAtATime, runs.inFlight}) {
                assertStoreFailed(run, killed, "ConnectException", true);
                assertNotCountedOnceDead(run);
                assertGaveUp(run);
                // the arrivals due while the threads backed off from the dead server are dropped and counted,
                // not lost
                assertTrue(run.summary().contains("scheduled arrivals went unsent: "), run.summary());
                assertTrue(run.summary().matches("(?s).*Arrivals +\\[total, late, dropped\\] +\\d+, \\d+, [1-9]\\d*\n.*"),
                        run.summary());
            }
        }
    }

    @Test
    void influxDbFrozenCostsFewFailuresAndTheWritesStoredLateAreCounted() throws Exception {
        try (InfluxRuns runs = InfluxRuns.start("STOP", "12")) {
            // each server frozen once its own run's load reached it: see the class comment
            long[] frozen = faultEach(200, runs.oneAtATime, freeze(runs.influx.pid()), runs.inFlight,
                    freeze(runs.other.pid()));
            FaultedRun[] both = {runs.oneAtATime, runs.inFlight};
            for (int i = 0; i < both.length; i++) {
                FaultedRun run = both[i];
                assertStoreFailed(run, frozen[i], "");
                assertCountedOnceBack(run);
                // writes that timed out while influxd was frozen were stored once it ran again: their points
                // may be counted, and no more than theirs
                assertTrue(run.summary().matches("(?s).*\\] \\d+, \\d+ \\((match|within: \\d+ of the \\d+ whose "
                        + "requests got no answer)\\) points of accepted writes.*"), run.summary());
            }
        }
    }

    /**
     * influxdb-write.jmx at 500 writes/s twice, 20 threads of one write each and 2 threads of 16 in flight, each on a
     * server of its own: InfluxDB counts the writes of all its databases together, and each run's cross-check must
     * count its own; the fault hits both servers.
     */
    private record InfluxRuns(EmbeddedInfluxDb influx, EmbeddedInfluxDb other, FaultedRun oneAtATime,
            FaultedRun inFlight) implements AutoCloseable {
        /** @param seconds the runs' planned length; @param more options of both runs */
        static InfluxRuns start(String name, String seconds, String... more) throws IOException {
            if (EmbeddedInfluxDb.binary().isEmpty()) {
                Prerequisites.missing(EmbeddedInfluxDb.missingMessage(), EmbeddedInfluxDb.REQUIRED_ENV, "true");
            }
            Path results = results("influxdb-" + name);
            EmbeddedInfluxDb influx = EmbeddedInfluxDb.start();
            EmbeddedInfluxDb other = null;
            FaultedRun oneAtATime = null;
            try {
                other = EmbeddedInfluxDb.start();
                oneAtATime = FaultedRun.start(results, "influxdb-write.jmx", "POST /write", 20,
                        args(influx, "1", "20", seconds, more));
                return new InfluxRuns(influx, other, oneAtATime, FaultedRun.start(results, "influxdb-write.jmx",
                        "POST /write", 2 * 16, args(other, "16", "2", seconds, more)));
            } catch (IOException | RuntimeException e) {
                new InfluxRuns(influx, other, oneAtATime, null).close();
                throw e;
            }
        }

        private static String[] args(EmbeddedInfluxDb influx, String inFlight, String threads, String seconds,
                String... more) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-Jinflux_host=" + influx.host(),
                    "-Jinflux_port=" + influx.port(), "-Jrate=500", "-Jduration=" + seconds, "-Jwarmup=0",
                    "-Jthreads=" + threads, "-Jin_flight=" + inFlight, "-Jresponse_timeout=1000", "-Jconnect_timeout=1000",
                    "-Jserver_gauges=true"));
            args.addAll(java.util.List.of(more));
            return args.toArray(String[]::new);
        }

        /** The runs first, then the servers. */
        @Override
        public void close() {
            try (EmbeddedInfluxDb a = influx; EmbeddedInfluxDb b = other; FaultedRun r = oneAtATime) {
                if (inFlight != null) {
                    inFlight.close();
                }
            }
        }
    }
}
