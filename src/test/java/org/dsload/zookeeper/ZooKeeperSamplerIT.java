package org.dsload.zookeeper;

import static org.dsload.zookeeper.ZooKeeperFixture.connection;
import static org.dsload.zookeeper.ZooKeeperFixture.run;
import static org.dsload.zookeeper.ZooKeeperFixture.sampler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.zookeeper.data.Stat;
import org.dsload.core.SampleTiming;
import org.dsload.process.Commands;
import org.dsload.process.Deadline;
import org.dsload.process.Signals;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedZooKeeper;
import org.dsload.testing.JMeterRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every operation of the ZooKeeper sampler against a real ZooKeeper server. */
@Timeout(120)
class ZooKeeperSamplerIT {
    private static EmbeddedZooKeeper zk;
    private static CuratorFramework plain;
    private static int testNumber;
    private JMeterVariables variables;
    private ZooKeeperConnection connection;
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
    void connect() {
        variables = JMeterRuntime.freshVariables();
        root = "/t" + (++testNumber);
        connection = connection("zk", zk.connectString());
        connection.testStarted();
    }

    @AfterEach
    void disconnect() {
        connection.testEnded();
    }

    /**
     * Engines of a distributed run claim the test root at the same moment: each finds it absent and
     * creates it, and all but one get NODEEXISTS from the server. Each claim must then take the root
     * another engine made, not refuse the test.
     */
    @Test
    void enginesClaimingTheSameAbsentRootAtOnceAllGetIt() throws Exception {
        ClientSettings settings = new ClientSettings(zk.connectString(), 10_000, 5_000, 10_000, ClientSettings.RETRY_NONE,
                0, 0, "", "", "", "", ClientSettings.ACL_OPEN);
        org.dsload.core.Fields fields = new org.dsload.core.Fields(ZooKeeperConnection.class, "ensemble");
        int engines = 6;
        List<CuratorFramework> clients = new ArrayList<>();
        try {
            for (int i = 0; i < engines; i++) {
                clients.add(ZooKeeperFixture.plainClient(zk.connectString()));
            }
            for (int round = 0; round < 10; round++) {
                String path = root + "/race" + round + "/master";
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(engines);
                List<CompletableFuture<TestRoot>> claims = new ArrayList<>();
                for (int i = 0; i < engines; i++) {
                    CuratorFramework client = clients.get(i);
                    String engine = "engine-" + i;
                    claims.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            together.await(10, TimeUnit.SECONDS);
                            return TestRoot.claim(client, settings, fields, path, false, engine,
                                    new NamespaceTally(zk.connectString()));
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    }));
                }
                for (CompletableFuture<TestRoot> claim : claims) {
                    TestRoot claimed = claim.get(30, TimeUnit.SECONDS);
                    assertEquals(path, claimed.path());
                    assertFalse(claimed.heldNodes(), "round " + round);
                }
                assertNotNull(TestRoot.ownedBy(plain.getData().forPath(path)), "one engine's marker is on the root");
            }
        } finally {
            clients.forEach(CuratorFramework::close);
        }
    }

    /** Ends this test's connection and starts another with the given settings. */
    private void reconnect(Consumer<ZooKeeperConnection> settings) {
        connection.testEnded();
        connection = connection("zk", zk.connectString());
        settings.accept(connection);
        connection.testStarted();
    }

    private static void assertOk(SampleResult r) {
        assertTrue(r.isSuccessful(), r.getResponseCode() + " " + r.getResponseMessage());
        assertEquals("OK", r.getResponseCode());
    }

    private static void assertFails(String code, SampleResult r) {
        assertFalse(r.isSuccessful(), "expected " + code + ", got " + r.getResponseCode() + " " + r.getResponseMessage());
        assertEquals(code, r.getResponseCode(), r.getResponseMessage());
    }

    private static ZooKeeperSampler withData(ZooKeeperSampler s, String data) {
        s.setData(data);
        return s;
    }

    private static long micros(JMeterVariables variables) {
        String timing = variables.get(SampleTiming.VARIABLE);
        return Long.parseLong(timing.substring(timing.indexOf(':') + 1));
    }

    @Test
    void createSetGetExistsDeleteWithZooKeepersErrorCodes() {
        ZooKeeperSampler create = withData(sampler("zk", "create", root), "v0");
        assertOk(create.sample(null));
        assertFails("NODEEXISTS", create.sample(null));

        SampleResult get = run("get", root);
        assertOk(get);
        assertTrue(get.getResponseDataAsString().startsWith("v0\nversion 0"), get.getResponseDataAsString());
        assertTrue(get.getBytesAsLong() > 2 && get.getSentBytes() > root.length(), "bytes are counted");

        ZooKeeperSampler set = withData(sampler("zk", "set", root), "v1");
        set.setVersion("0");
        assertOk(set.sample(null));
        assertFails("BADVERSION", set.sample(null));
        set.setVersion("-1");
        assertOk(set.sample(null));

        SampleResult exists = run("exists", root);
        assertOk(exists);
        assertTrue(exists.getResponseDataAsString().startsWith("version 2"), exists.getResponseDataAsString());

        ZooKeeperSampler delete = sampler("zk", "delete", root);
        delete.setVersion("7");
        assertFails("BADVERSION", delete.sample(null));
        delete.setVersion("2");
        assertOk(delete.sample(null));

        assertFails("NONODE", run("get", root));
        assertFails("NONODE", run("delete", root));
        assertFails("NONODE", run("set", root));
        SampleResult absent = run("exists", root);
        assertTrue(absent.isSuccessful(), "exists answers absence, it does not fail");
        assertEquals("NONODE", absent.getResponseCode());
        assertFails("BADARGUMENTS", run("get", root + "/trailing-slash/"));
    }

    @Test
    void createModesChildrenAndGeneratedDataOfTheGivenSize() throws Exception {
        assertOk(run("create", root));
        ZooKeeperSampler sequential = sampler("zk", "create", root + "/seq-");
        sequential.setCreateMode("persistent-sequential");
        SampleResult first = sequential.sample(null);
        assertOk(first);
        assertEquals(root + "/seq-0000000000", first.getResponseDataAsString());
        assertEquals(root + "/seq-0000000001", sequential.sample(null).getResponseDataAsString());

        ZooKeeperSampler sized = sampler("zk", "create", root + "/data-#{seq}");
        sized.setDataSize("100");
        assertOk(sized.sample(null));
        assertEquals(100, plain.checkExists().forPath(root + "/data-0").getDataLength());

        ZooKeeperSampler container = sampler("zk", "create", root + "/box/inner");
        container.setCreateParents("true");
        assertOk(container.sample(null));
        assertNotNull(plain.checkExists().forPath(root + "/box/inner"));

        ZooKeeperSampler ttl = sampler("zk", "create", root + "/ttl");
        ttl.setCreateMode("ttl");
        ttl.setTtl("60000");
        assertOk(ttl.sample(null));

        ZooKeeperSampler ephemeralSeq = sampler("zk", "create", root + "/eph-");
        ephemeralSeq.setCreateMode("ephemeral-sequential");
        assertOk(ephemeralSeq.sample(null));

        SampleResult children = run("children", root);
        assertOk(children);
        assertEquals("6 children", children.getResponseMessage());
        for (String child : new String[] {"seq-0000000000", "seq-0000000001", "data-0", "box", "ttl"}) {
            assertTrue(children.getResponseDataAsString().contains(child + "\n"), children.getResponseDataAsString());
        }
        assertFails("NONODE", run("children", root + "/missing"));
    }

    @Test
    void multiCommitsAllOrNothing() throws Exception {
        assertOk(run("create", root));
        ZooKeeperSampler multi = sampler("zk", "multi", root);
        multi.setMultiOperations("create " + root + "/a\ncreate " + root + "/b\nset " + root + " 0\ncheck " + root + " 1");
        SampleResult r = multi.sample(null);
        assertOk(r);
        assertEquals("4 operations committed", r.getResponseMessage());
        assertNotNull(plain.checkExists().forPath(root + "/b"));

        multi.setMultiOperations("create " + root + "/c\ncheck " + root + " 0");
        assertFails("BADVERSION", multi.sample(null));
        assertNull(plain.checkExists().forPath(root + "/c"), "a failed transaction creates nothing");
    }

    @Test
    void acceptedCodesCountAsSuccess() {
        assertOk(run("create", root));
        ZooKeeperSampler again = sampler("zk", "create", root);
        again.setAcceptedCodes("NODEEXISTS");
        SampleResult r = again.sample(null);
        assertTrue(r.isSuccessful());
        assertEquals("NODEEXISTS", r.getResponseCode());
    }

    @Test
    void ephemeralNodesDisappearWhenTheThreadsSessionCloses() throws Exception {
        reconnect(c -> c.setSessions("per-thread"));
        assertOk(run("create", root));
        CompletableFuture<SampleResult> created = CompletableFuture.supplyAsync(() -> {
            JMeterRuntime.adopt(variables, 1);
            ZooKeeperSampler ephemeral = sampler("zk", "create", root + "/executor");
            ephemeral.setCreateMode("ephemeral");
            SampleResult r = ephemeral.sample(null);
            try {
                Stat stat = plain.checkExists().forPath(root + "/executor");
                assertNotNull(stat, "the ephemeral node exists while its thread runs");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            ephemeral.threadFinished();
            return r;
        });
        assertOk(created.get(60, TimeUnit.SECONDS));
        assertNull(plain.checkExists().forPath(root + "/executor"), "the thread's session closed with the thread");
    }

    @Test
    void perThreadSessionsStopAtTheirLimit() throws Exception {
        reconnect(c -> {
            c.setSessions("per-thread");
            c.setMaxSessions("1");
        });
        assertOk(run("create", root));
        SampleResult other = CompletableFuture.supplyAsync(() -> {
            JMeterRuntime.adopt(variables, 2);
            return run("get", root);
        }).get(60, TimeUnit.SECONDS);
        assertFails("SESSION_LIMIT", other);
        assertTrue(other.getResponseMessage().contains("Max sessions"), other.getResponseMessage());
    }

    @Test
    void watchMeasuresTheLatencyOfAChangeMadeByAnotherClient() throws Exception {
        ZooKeeperConnection writerConnection = connection("writer", zk.connectString());
        writerConnection.testStarted();
        try {
            assertOk(run("create", root));
            ZooKeeperSampler watch = sampler("zk", "watch", root);
            watch.setWatchTimeout("20000");
            CompletableFuture<SampleResult> watched = CompletableFuture.supplyAsync(() -> {
                JMeterRuntime.adopt(variables, 1);
                return watch.sample(null);
            });
            // The writer is another session of another connection element, in another thread.
            SampleResult write = null;
            for (int i = 0; i < 200 && !watched.isDone(); i++) {
                Thread.sleep(50);
                write = withData(sampler("writer", "set", root), "changed " + i).sample(null);
                assertOk(write);
            }
            SampleResult r = watched.get(30, TimeUnit.SECONDS);
            assertOk(r);
            assertTrue(r.getResponseMessage().startsWith("NodeDataChanged on " + root
                    + " (from the write sent in this JVM to the event)"), r.getResponseMessage());
            assertTrue(r.getTime() < 20_000, "the latency is the notification's, not the wait: " + r.getTime() + " ms");
        } finally {
            writerConnection.testEnded();
        }
    }

    @Test
    void watchWithATriggerWriteOfASecondSession() {
        assertOk(run("create", root));
        ZooKeeperSampler watch = sampler("zk", "watch", root);
        watch.setTrigger("set");
        SampleResult r = watch.sample(null);
        assertOk(r);
        assertTrue(r.getResponseMessage().contains("from the write sent in this JVM"), r.getResponseMessage());
        long micros = micros(variables);
        assertTrue(micros > 0 && micros < 20_000_000, "µs timing " + micros);
        assertEquals(micros / 1000, r.getTime());

        watch.setTrigger("delete");
        SampleResult deleted = watch.sample(null);
        assertOk(deleted);
        assertTrue(deleted.getResponseMessage().startsWith("NodeDeleted"), deleted.getResponseMessage());
        watch.setTrigger("create");
        assertTrue(watch.sample(null).getResponseMessage().startsWith("NodeCreated"));
    }

    @Test
    void watchOfAWriterOutsideTheJvmGoesByTheZnodesMtime() throws Exception {
        assertOk(run("create", root));
        ZooKeeperSampler watch = sampler("zk", "watch", root);
        CompletableFuture<SampleResult> watched = CompletableFuture.supplyAsync(() -> {
            JMeterRuntime.adopt(variables, 1);
            return watch.sample(null);
        });
        for (int i = 0; i < 200 && !watched.isDone(); i++) {
            Thread.sleep(50);
            plain.setData().forPath(root, ("outside " + i).getBytes(StandardCharsets.UTF_8));
        }
        SampleResult r = watched.get(30, TimeUnit.SECONDS);
        assertOk(r);
        assertTrue(r.getResponseMessage().contains("from the znode's mtime (server clock)"), r.getResponseMessage());
    }

    @Test
    void aWatchThatNeverFiresFailsAtItsTimeout() {
        assertOk(run("create", root));
        ZooKeeperSampler watch = sampler("zk", "watch", root);
        watch.setWatchTimeout("500");
        long started = System.nanoTime();
        SampleResult r = watch.sample(null);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertFails("WATCH_TIMEOUT", r);
        // the timeout, then removing the watch in the background: nothing else to wait for
        assertTrue(millis >= 500 && millis < 500 + 1500, "returned after " + millis + " ms");
        assertEquals(500, r.getTime());
    }

    @Test
    void leftWatchesAreCountedAndKeptWatchesStay() throws Exception {
        assertOk(run("create", root));
        ZooKeeperSampler keep = sampler("zk", "get", root);
        keep.setWatch("keep");
        assertOk(keep.sample(null));
        assertOk(keep.sample(null));
        ZooKeeperClient clients = (ZooKeeperClient) variables.getObject("zk");
        for (int i = 1; i <= 3; i++) {
            plain.setData().forPath(root, new byte[] {(byte) i});
            int changes = i;
            Deadline.await(() -> clients.notifications() >= changes, Duration.ofSeconds(20), Duration.ofMillis(20));
            assertEquals(i, clients.notifications(), "one notification per change: the watch stays, once");
            Thread.sleep(200);
        }
    }

    @Test
    void namespacePutsEveryPathUnderIt() throws Exception {
        reconnect(c -> c.setNamespace("/dsload-ns"));
        assertOk(run("create", root));
        assertNotNull(plain.checkExists().forPath("/dsload-ns" + root));
    }

    @Test
    void digestAclDeniesAnUnauthenticatedClient() throws Exception {
        reconnect(c -> {
            c.setAuthUser("scheduler");
            c.setAuthPassword("s3cret-Pa55");
            c.setAcl("creator");
        });
        ZooKeeperConnection anonymous = connection("anon", zk.connectString());
        anonymous.testStarted();
        try {
            SampleResult created = withData(sampler("zk", "create", root), "private").sample(null);
            assertOk(created);
            assertOk(run("get", root));
            SampleResult denied = sampler("anon", "get", root).sample(null);
            assertFails("NOAUTH", denied);
            assertTrue(denied.getResponseMessage().contains("unauthenticated session"), denied.getResponseMessage());
            assertTrue(denied.isStopTest(), "no retry can cure a denied ACL: the test stops");
            for (SampleResult r : new SampleResult[] {created, denied}) {
                String everything = r.getSamplerData() + r.getResponseMessage() + r.getResponseDataAsString();
                assertFalse(everything.contains("s3cret-Pa55"), "the password appears nowhere: " + everything);
            }
        } finally {
            anonymous.testEnded();
        }
    }

    @Test
    void aRequestThatGotThroughOnlyAfterRetriesIsMarkedRetried() throws Exception {
        reconnect(c -> {
            c.setConnectionTimeout("1000");
            c.setRequestTimeout("1000");
            c.setRetryPolicy("n-times");
            c.setRetries("20");
            c.setRetrySleep("100");
        });
        assertOk(run("create", root));
        List<SampleResult> during = new ArrayList<>();
        signal("STOP", zk.node(0).pid());
        CompletableFuture<Void> thaw = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            signal("CONT", zk.node(0).pid());
        });
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            SampleResult r;
            do {
                r = run("get", root);
                during.add(r);
            } while (!r.isSuccessful() && System.nanoTime() < deadline);
            thaw.get(10, TimeUnit.SECONDS);
        } finally {
            signal("CONT", zk.node(0).pid());
        }
        SampleResult last = during.get(during.size() - 1);
        assertTrue(last.isSuccessful(), last.getResponseCode() + " " + last.getResponseMessage());
        assertEquals("OK_RETRIED", last.getResponseCode(), "a success that needed retries says so: "
                + last.getResponseMessage());
        assertTrue(last.getResponseMessage().matches("OK \\(after \\d+ retr(y|ies) of the retry policy\\)"),
                last.getResponseMessage());
        for (SampleResult r : during.subList(0, during.size() - 1)) {
            assertTrue(List.of("REQUESTTIMEOUT", "CONNECTIONLOSS").contains(r.getResponseCode()), r.getResponseCode());
        }
        // the session may still be settling on a busy machine: the next call succeeds, retried or not
        SampleResult after = run("get", root);
        assertTrue(after.isSuccessful() && after.getResponseCode().startsWith("OK"),
                after.getResponseCode() + " " + after.getResponseMessage());
    }

    private static void signal(String name, long pid) {
        // a STOP is confirmed (every thread stopped) before the test goes on
        try {
            if (name.equals("STOP")) {
                Signals.stopConfirmed(pid, Duration.ofSeconds(10));
            } else {
                Signals.send(pid, name);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aTestRootThatHoldsZnodesItDidNotCreateIsRefused() throws Exception {
        plain.create().creatingParentsIfNeeded().forPath(root + "/someone/else", "theirs".getBytes(StandardCharsets.UTF_8));
        reconnect(c -> c.setTestRoot(root));
        SampleResult r = run("delete", root + "/someone/else");
        assertFails("CONFIG", r);
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("already holds 2 znodes that this test did not create"),
                r.getResponseMessage());
        assertTrue(r.getResponseMessage().contains("Use a root that holds znodes"), r.getResponseMessage());
        assertNotNull(plain.checkExists().forPath(root + "/someone/else"), "nothing was deleted");

        reconnect(c -> {
            c.setTestRoot(root);
            c.setAllowUsedRoot("true");
            c.setCleanUp("true");
        });
        assertOk(run("create", root + "/mine"));
        reconnect(c -> { });
        assertNotNull(plain.checkExists().forPath(root + "/someone/else"), "a used root is left as it was");
        assertNotNull(plain.checkExists().forPath(root + "/mine"), "this test cannot tell its own znodes from the others");
    }

    @Test
    void aTestRootIsCreatedMarkedAndRemovedWithEverythingUnderItAtTheEnd() throws Exception {
        reconnect(c -> {
            c.setTestRoot(root + "/engine");
            c.setCleanUp("true");
        });
        String marker = new String(plain.getData().forPath(root + "/engine"), StandardCharsets.UTF_8);
        assertTrue(marker.startsWith("dsload test root, created "), marker);
        ZooKeeperSampler deep = sampler("zk", "create", root + "/engine/c1/#{seq}");
        deep.setCreateParents("true");
        for (int i = 0; i < 30; i++) {
            assertOk(deep.sample(null));
        }
        reconnect(c -> { });
        assertNull(plain.checkExists().forPath(root + "/engine"), "the root and its 31 znodes are gone");
    }

    @Test
    void whatAKilledRunLeftIsRemovedOnItsOwnOnlyWhenMarkedAsDsloads() throws Exception {
        reconnect(c -> c.setTestRoot(root + "/left"));
        ZooKeeperSampler deep = sampler("zk", "create", root + "/left/c1/#{seq}");
        deep.setCreateParents("true");
        for (int i = 0; i < 5; i++) {
            assertOk(deep.sample(null));
        }
        reconnect(c -> { });
        assertNotNull(plain.checkExists().forPath(root + "/left/c1/4"), "Clean up at test end is off");
        plain.create().creatingParentsIfNeeded().forPath(root + "/users/alice");

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream o = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
        java.io.PrintStream e = new java.io.PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, ZnodeCleanup.run(new String[] {zk.connectString(), root + "/left"}, o, e), err.toString());
        assertTrue(out.toString().contains("removed " + root + "/left and the 6 znodes under it"), out.toString());
        assertNull(plain.checkExists().forPath(root + "/left"));

        assertEquals(1, ZnodeCleanup.run(new String[] {zk.connectString(), root + "/users"}, o, e));
        assertTrue(err.toString().contains("was not created by a dsload test"), err.toString());
        assertNotNull(plain.checkExists().forPath(root + "/users/alice"), "an unmarked root stays");
        assertEquals(0, ZnodeCleanup.run(new String[] {zk.connectString(), root + "/users", "--force"}, o, e));
        assertNull(plain.checkExists().forPath(root + "/users"));
        assertEquals(2, ZnodeCleanup.run(new String[] {zk.connectString()}, o, e), "a root is required");
    }

    @Test
    void zkCleanupRunsFromBinDsloadTheInstalledJarAndTheDocumentedClass() throws Exception {
        List<String> roots = List.of(root + "/bin", root + "/jar", root + "/class");
        for (String left : roots) {
            reconnect(c -> c.setTestRoot(left));
            ZooKeeperSampler create = sampler("zk", "create", left + "/n#{seq}");
            for (int i = 0; i < 3; i++) {
                assertOk(create.sample(null));
            }
        }
        reconnect(c -> { });
        Path jar;
        try (Stream<Path> ext = Files.list(Checkout.jmeterHome().resolve("lib/ext"))) {
            jar = ext.filter(p -> p.getFileName().toString().matches("dsload-.*\\.jar")).findFirst().orElseThrow();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<List<String>> commands = List.of(
                List.of(Checkout.basedir().resolve("bin/dsload").toString(), "zk-cleanup",
                        zk.connectString(), roots.get(0)),
                List.of(java, "-jar", jar.toString(), "zk-cleanup", zk.connectString(), roots.get(1)),
                List.of(java, "-cp", jar.toString(), ZnodeCleanup.class.getName(), zk.connectString(), roots.get(2)));
        for (int i = 0; i < commands.size(); i++) {
            Commands.Result r = Commands.run(commands.get(i), Duration.ofMinutes(1));
            assertEquals(0, r.exit(), commands.get(i) + "\n" + r.output());
            assertTrue(r.output().contains("removed " + roots.get(i) + " and the 3 znodes under it"), r.output());
            assertFalse(r.output().contains("is missing"), r.output());
            assertNull(plain.checkExists().forPath(roots.get(i)));
        }
    }

    @Test
    void aMalformedFieldStopsTheTestNamingIt() {
        reconnect(c -> c.setSessionTimeout("30s"));
        SampleResult r = run("get", "/");
        assertFails("CONFIG", r);
        assertTrue(r.isStopTest());
        assertTrue(r.getResponseMessage().contains("field 'Session timeout (ms)' must be a whole number"),
                r.getResponseMessage());
    }
}
