package org.dsload.zookeeper;

import static org.dsload.zookeeper.ZooKeeperFixture.connection;
import static org.dsload.zookeeper.ZooKeeperFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.Completion;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.SampleTiming;
import org.dsload.core.format.BatchTiming;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.process.Signals;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.testing.SamplerThread;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ZooKeeper Operation with requests in flight against a real ZooKeeper server. */
@Timeout(180)
class ZooKeeperInFlightIT {
    private static EmbeddedZooKeeper zk;
    private static CuratorFramework plain;
    private static int testNumber;
    private String root;

    @BeforeAll
    static void start() throws Exception {
        zk = EmbeddedZooKeeper.single();
        plain = ZooKeeperFixture.plainClient(zk.connectString());
    }

    @AfterAll
    static void stop() {
        plain.close();
        zk.close();
    }

    @BeforeEach
    void root() throws Exception {
        root = "/f" + (++testNumber);
        plain.create().forPath(root);
    }

    private ZooKeeperSampler inFlight(String operation, String path, int n) {
        ZooKeeperSampler s = sampler("zk", operation, path);
        s.setInFlight(Integer.toString(n));
        s.setResponseDataLimit("0");
        return s;
    }

    /** Freezes the server (SIGSTOP) for a while, from a thread of its own; returns when it froze. */
    private static CompletableFuture<long[]> freeze(long millis) {
        long[] when = new long[2];
        signal("STOP", zk);
        when[0] = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                signal("CONT", zk);
                when[1] = System.nanoTime();
            }
            return when;
        });
    }

    private static void signal(String name, EmbeddedZooKeeper server) {
        // a STOP is confirmed (every thread stopped) before the test goes on
        try {
            if (name.equals("STOP")) {
                Signals.stopConfirmed(server.node(0).pid(), Duration.ofSeconds(10));
            } else {
                Signals.send(server.node(0).pid(), name);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyRequestEndsOnceWithItsOwnTimingAndTheServerHoldsWhatWasWritten() throws Exception {
        SamplerThread thread = new SamplerThread(connection("zk", zk.connectString()));
        try (thread) {
            ZooKeeperSampler create = inFlight("create", root + "/n#{seq}", 25);
            create.setDataSize("100");
            thread.drain(create, SamplerThread.arrivals(2000));
        }
        List<Completion> created = thread.requests();
        assertEquals(2000, created.size());
        assertTrue(created.stream().allMatch(r -> r.outcome().code().equals("OK") && r.count() == 1), "all created");
        assertEquals(2000, plain.checkExists().forPath(root).getNumChildren(), "the server holds every znode reported");
        assertTrue(thread.rows.size() < 2000, "rows stand for several requests: " + thread.rows.size());
        assertEquals(2000, thread.rows.stream().mapToInt(SampleResult::getSampleCount).sum());
        SampleResult last = thread.rows.get(thread.rows.size() - 1);
        String timing = (String) JMeterContextService.getContext().getVariables().get(SampleTiming.VARIABLE);
        assertEquals(last.getSampleCount(), BatchTiming.parse(timing, last.getStartTime(), last.getTime()).size(),
                "the row's timing value carries each of its requests");
        assertTrue(thread.atThreadEnd.isEmpty(), "nothing was outstanding at the end");

        SamplerThread reads = new SamplerThread(connection("zk", zk.connectString()));
        try (reads) {
            reads.drain(inFlight("get", root + "/n#{seq}", 25), SamplerThread.arrivals(2000));
        }
        assertEquals(2000, reads.count("OK"));
        assertTrue(reads.requests().stream().allMatch(r -> r.outcome().receivedBytes() > 100), "each read its 100 bytes");

        SamplerThread deletes = new SamplerThread(connection("zk", zk.connectString()));
        try (deletes) {
            deletes.drain(inFlight("delete", root + "/n#{seq}", 25), SamplerThread.arrivals(2100));
        }
        assertEquals(2000, deletes.count("OK"));
        assertEquals(100, deletes.count("NONODE"), "the 100 past the last znode found none");
        assertEquals(0, plain.checkExists().forPath(root).getNumChildren());
        for (SampleResult row : deletes.rows) {
            Set<String> codes = ((RequestsResult) row).requests().stream().map(r -> r.outcome().code())
                    .collect(Collectors.toSet());
            assertEquals(1, codes.size(), "one kind per row: " + codes);
        }
    }

    @Test
    void transactionsAndSequentialCreatesAnswerAsTheBlockingCallsDo() throws Exception {
        SamplerThread thread = new SamplerThread(connection("zk", zk.connectString()));
        try (thread) {
            ZooKeeperSampler multi = inFlight("multi", "/", 10);
            multi.setMultiOperations("create " + root + "/a#{seq}\ncreate " + root + "/b#{seq}");
            multi.setResponseDataLimit("200");
            thread.drain(multi, SamplerThread.arrivals(300));
            ZooKeeperSampler sequential = inFlight("create", root + "/s-", 10);
            sequential.setCreateMode("persistent-sequential");
            sequential.setResponseDataLimit("100");
            thread.drain(sequential, SamplerThread.arrivals(50));
        }
        assertEquals(350, thread.count("OK"));
        assertEquals(650, plain.checkExists().forPath(root).getNumChildren(), "300 transactions of two creates, 50 more");
        SampleResult multiRow = thread.rows.get(0);
        assertTrue(multiRow.getSamplerData().startsWith("multi:\n  create " + root + "/a"), multiRow.getSamplerData());
        assertTrue(multiRow.getResponseDataAsString().startsWith("create " + root + "/a"),
                multiRow.getResponseDataAsString());
        SampleResult sequentialRow = thread.rows.get(thread.rows.size() - 1);
        assertTrue(sequentialRow.getResponseDataAsString().matches(root.replace("/", "\\/") + "/s-\\d{10}"),
                "the created path, sequence number included: " + sequentialRow.getResponseDataAsString());
    }

    @Test
    void aFrozenServerShowsInTheRequestsOutstandingThenAndInNoOthers() throws Exception {
        plain.create().forPath(root + "/x", new byte[10]);
        SamplerThread thread = new SamplerThread(connection("zk", zk.connectString()));
        long[] when;
        try (thread) {
            ZooKeeperSampler get = inFlight("get", root + "/x", 10);
            thread.loop(get, Duration.ofMillis(500));
            CompletableFuture<long[]> freeze = freeze(600);
            // a second of load after the thaw, more on a machine whose other work slows the thawed server
            thread.loop(get, Duration.ofMillis(2000));
            when = freeze.get(10, TimeUnit.SECONDS);
        }
        long frozen = when[0];
        long thawed = when[1];
        List<Completion> answered = thread.requests().stream().filter(r -> r.outcome().code().equals("OK")).toList();
        assertEquals(thread.requests().size() - thread.count(InFlightWindow.CANCELLED), answered.size(),
                "a 600 ms freeze fails no request: " + thread.requests().stream().map(r -> r.outcome().code())
                        .collect(Collectors.toSet()));
        // the requests outstanding while the server was frozen, up to its first answer after the freeze (each
        // of them answered then or later): at most the 10 in flight
        String times = timesAround(answered, frozen, thawed);
        long resumed = answered.stream().mapToLong(Completion::endNanos).filter(end -> end > frozen).min()
                .orElseThrow(() -> new AssertionError("no answer after the freeze:\n" + times));
        List<Completion> outstanding = answered.stream()
                .filter(r -> r.sendNanos() < resumed && r.endNanos() >= resumed).toList();
        assertTrue(outstanding.size() <= 10, "no more than the 10 in flight: " + outstanding.size() + "\n" + times);
        assertTrue(resumed > frozen + 500_000_000L, "the first answer after the freeze shows it:\n" + times);
        // the requests sent once the server answered again do not carry it (those sent as it thawed, their places
        // freed by the first answers, may meet a server still catching up)
        List<Completion> after = answered.stream().filter(r -> r.sendNanos() > thawed + 100_000_000L).toList();
        assertTrue(after.size() >= 20, "the load went on after the freeze: " + after.size());
        assertTrue(after.stream().noneMatch(r -> r.elapsedMicros() >= 500_000),
                "requests sent after it do not carry it:\n" + times);
    }

    /** The requests from 100 ms before the freeze to 100 ms after the thaw: sent and answered, in ms from the freeze. */
    private static String timesAround(List<Completion> requests, long frozen, long thawed) {
        StringBuilder s = new StringBuilder("thawed at +" + (thawed - frozen) / 1_000_000 + " ms; sent, answered (ms):");
        for (Completion r : requests) {
            if (r.endNanos() > frozen - 100_000_000L && r.sendNanos() < thawed + 100_000_000L) {
                s.append(String.format(" %+d..%+d", (r.sendNanos() - frozen) / 1_000_000,
                        (r.endNanos() - frozen) / 1_000_000));
            }
        }
        return s.toString();
    }

    @Test
    void aServerThatStopsAnsweringFailsEachRequestAtTheRequestTimeoutFromItsSendAndTheThreadsEndCancelsTheRest() {
        ZooKeeperConnection c = connection("zk", zk.connectString());
        c.setRequestTimeout("300");
        SamplerThread thread = new SamplerThread(c);
        try (thread) {
            ZooKeeperSampler get = inFlight("exists", root, 4);
            thread.loop(get, Duration.ofMillis(200));
            CompletableFuture<long[]> freeze = freeze(2000);
            try {
                while (thread.count("REQUESTTIMEOUT") < 12) {
                    thread.sample(get);
                }
                thread.stopTest();
            } finally {
                freeze.join();
            }
        }
        List<Completion> timedOut = thread.requests().stream()
                .filter(r -> r.outcome().code().equals("REQUESTTIMEOUT")).toList();
        assertTrue(timedOut.stream().allMatch(r -> r.elapsedMicros() >= 300_000), "each waited its own 300 ms");
        assertTrue(timedOut.get(0).outcome().message().startsWith("no reply from " + zk.connectString()
                + " within the request timeout of 300 ms"), timedOut.get(0).outcome().message());
        SampleResult failedRow = thread.rows.stream().filter(r -> !r.isSuccessful()).findFirst().orElseThrow();
        assertEquals(failedRow.getSampleCount(), failedRow.getErrorCount(), "a failed row counts each request");
        assertEquals(4, thread.count(InFlightWindow.CANCELLED), "the 4 outstanding when the test was stopped are cancelled");
        RequestsResult cancelled = thread.atThreadEnd.stream().filter(r -> r.getResponseCode()
                .equals(InFlightWindow.CANCELLED)).findFirst().orElseThrow();
        assertEquals(cancelled.getSampleCount(), cancelled.getErrorCount());
    }

    @Test
    void aRequestThatGotThroughOnlyAfterCuratorRetriedItIsMarkedRetried() throws Exception {
        plain.create().forPath(root + "/x");
        ZooKeeperConnection c = connection("zk", zk.connectString());
        // the client gives a silent server up after 2/3 of the session timeout, then Curator retries: 25 times
        // 200 ms outlast the freeze's end and the reconnection after it on a busy machine (20 times 100 ms ran
        // out once, and the 5 requests outstanding failed with CONNECTIONLOSS)
        c.setSessionTimeout("4000");
        c.setConnectionTimeout("1000");
        c.setRequestTimeout("20000");
        c.setRetryPolicy("n-times");
        c.setRetries("25");
        c.setRetrySleep("200");
        SamplerThread thread = new SamplerThread(c);
        try (thread) {
            ZooKeeperSampler get = inFlight("get", root + "/x", 5);
            thread.loop(get, Duration.ofMillis(300));
            CompletableFuture<long[]> freeze = freeze(3200);
            thread.loop(get, Duration.ofMillis(5000));
            freeze.get(10, TimeUnit.SECONDS);
        }
        List<Completion> retried = thread.requests().stream()
                .filter(r -> r.outcome().code().equals("OK_RETRIED")).toList();
        assertFalse(retried.isEmpty(), "codes: " + thread.requests().stream().map(r -> r.outcome().code())
                .collect(Collectors.groupingBy(s -> s, Collectors.counting())));
        assertTrue(retried.size() <= 5, "only the requests outstanding when the connection was lost: " + retried.size());
        assertTrue(retried.get(0).outcome().message().matches("OK \\(after \\d+ retr(y|ies) of the retry policy\\)"),
                retried.get(0).outcome().message());
        assertTrue(retried.stream().allMatch(r -> r.elapsedMicros() >= 2_000_000), "each waited out the freeze");
        assertTrue(thread.count("OK") > 100, "the others are plain successes");
    }

    @Test
    void anAclThatDeniesTheSessionStopsTheTestAtItsFirstRowUnlessTheSamplerSaysOtherwise() throws Exception {
        ZooKeeperConnection owner = connection("owner", zk.connectString());
        owner.setAuthUser("scheduler");
        owner.setAuthPassword("s3cret-Pa55");
        owner.setAcl("creator");
        owner.testStarted();
        try {
            SampleResult made = sampler("owner", "create", root + "/private").sample(null);
            assertTrue(made.isSuccessful(), made.getResponseMessage());
        } finally {
            owner.testEnded();
        }
        ZooKeeperConnection wrong = connection("zk", zk.connectString());
        wrong.setAuthUser("scheduler");
        wrong.setAuthPassword("not-the-password");
        SamplerThread thread = new SamplerThread(wrong);
        try (thread) {
            SampleResult denied = thread.sample(inFlight("get", root + "/private", 3));
            assertEquals("NOAUTH", denied.getResponseCode());
            assertTrue(denied.isStopTest(), "a wrong digest password fails every request the same way");
            assertFalse((denied.getResponseMessage() + denied.getSamplerData()).contains("not-the-password"));
            ZooKeeperSampler runOn = inFlight("get", root + "/private", 3);
            runOn.setStopOnUnrecoverable("false");
            SampleResult counted = thread.sample(runOn);
            assertEquals("NOAUTH", counted.getResponseCode());
            assertFalse(counted.isStopTest());
            ZooKeeperSampler blocking = sampler("zk", "get", root + "/private");
            SampleResult one = thread.sample(blocking);
            assertEquals("NOAUTH", one.getResponseCode());
            assertTrue(one.isStopTest(), "the blocking sampler stops the test too");
        }
    }

    @Test
    void aWatchInFlightAndAPathWithoutItsLeadingSlashAreRefusedAtTheFirstSample() {
        SamplerThread thread = new SamplerThread(connection("zk", zk.connectString()));
        try (thread) {
            SampleResult watch = thread.sample(inFlight("watch", root + "/w", 5));
            assertEquals(Results.CONFIG_ERROR, watch.getResponseCode());
            assertTrue(watch.isStopTest());
            assertTrue(watch.getResponseMessage().contains("field 'In flight'")
                    && watch.getResponseMessage().contains("waits for its notification"), watch.getResponseMessage());
            SampleResult relative = thread.sample(sampler("zk", "get", "dsload/x"));
            assertEquals(Results.CONFIG_ERROR, relative.getResponseCode());
            assertTrue(relative.getResponseMessage().contains("field 'Path' must start with '/'"),
                    relative.getResponseMessage());
        }
    }

    @Test
    void whenTheEnsembleIsGoneRequestsFailAtOnceAndAreSentAtABackedOffPace() throws Exception {
        EmbeddedZooKeeper own = EmbeddedZooKeeper.single();
        ZooKeeperConnection c = connection("zk", own.connectString());
        c.setSessionTimeout("2000");
        c.setConnectionTimeout("500");
        c.setRequestTimeout("1000");
        c.setRetryPolicy("none");
        SamplerThread thread = new SamplerThread(c);
        try (thread; own) {
            ZooKeeperSampler exists = inFlight("exists", "/gone", 5);
            thread.loop(exists, Duration.ofMillis(300));
            own.kill(own.node(0));
            // until the session is declared lost, requests wait out their bounds
            long lostBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (thread.requests().stream().noneMatch(r -> r.outcome().message().startsWith("no server of "))
                    && System.nanoTime() < lostBy) {
                thread.sample(exists);
            }
            // requests sent before the loss was known may still be waiting out their bound: judge the later ones
            long from = System.nanoTime();
            thread.loop(exists, Duration.ofSeconds(2));
            List<Completion> atOnce = thread.requests().stream().filter(r -> r.sendNanos() - from >= 0).toList();
            assertFalse(atOnce.isEmpty());
            assertTrue(atOnce.stream().allMatch(r -> r.outcome().code().equals("CONNECTIONLOSS")
                    && r.elapsedMicros() < 50_000), "each fails at once, without waiting for a server");
            // back-off 10 ms doubling to 1 s: a few attempts a second; without it, hundreds of thousands
            assertTrue(atOnce.size() < 100, "attempts in 2 s: " + atOnce.size());
        }
    }
}
