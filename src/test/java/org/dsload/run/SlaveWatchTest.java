package org.dsload.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.dsload.process.Deadline;
import org.dsload.remote.SlaveAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch against real processes and sockets: a "master" process (sleep) that would wait forever,
 * a slave whose registry port accepts connections, and one whose port refuses them.
 */
@Timeout(60)
class SlaveWatchTest {
    @TempDir
    Path dir;
    private Process master;
    private ServerSocket registry;

    @AfterEach
    void cleanUp() throws IOException {
        if (master != null) {
            master.destroyForcibly();
        }
        if (registry != null) {
            registry.close();
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void finished(Path log, SlaveAddress slave) throws IOException {
        Files.writeString(log, "2026-11-22 17:12:30,947 INFO o.a.j.JMeter: Finished remote host: " + slave + " ("
                + System.currentTimeMillis() + ")\n", StandardOpenOption.APPEND);
    }

    @Test
    void aMasterLeftWaitingForALostSlaveIsStoppedOnceTheOthersHaveFinished() throws Exception {
        Path log = Files.createFile(dir.resolve("jmeter.log"));
        master = new ProcessBuilder("sleep", "120").start();
        // the survivor's registry answers each probe at once, as a running slave's does
        registry = answering();
        SlaveAddress alive = new SlaveAddress("127.0.0.1", registry.getLocalPort());
        SlaveAddress dead = new SlaveAddress("127.0.0.1", closedPort());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        SlaveWatch watch = new SlaveWatch(List.of(alive, dead), Map.of(), log, master,
                new PrintStream(console, true, StandardCharsets.UTF_8));
        assertTrue(ticksUntil(watch, () -> watch.lost().containsKey(dead.toString())), watch.lost().toString());
        assertEquals(List.of(dead.toString()), List.copyOf(watch.lost().keySet()));
        assertTrue(watch.lost().get(dead.toString()).detail().contains("refused"), watch.lost().toString());
        ticks(watch, 3);
        assertTrue(master.isAlive(), "the other slave has not finished yet");

        finished(log, alive);
        watch.tick();
        assertTrue(master.waitFor(20, TimeUnit.SECONDS), "stopped once the survivor reported its end");
        assertTrue(watch.stoppedMaster());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("lost slave " + dead));
        watch.close();
    }

    @Test
    void aRunWithoutLossIsLeftToEndByItself() throws Exception {
        Path log = Files.createFile(dir.resolve("jmeter.log"));
        master = new ProcessBuilder("sleep", "120").start();
        registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        SlaveAddress alive = new SlaveAddress("127.0.0.1", registry.getLocalPort());
        SlaveWatch watch = new SlaveWatch(List.of(alive), Map.of(), log, master,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        finished(log, alive);
        ticks(watch, 3);
        assertTrue(master.isAlive());
        assertFalse(watch.stoppedMaster());
        assertTrue(watch.lost().isEmpty());
        watch.close();
    }

    /** A registry port whose process answers: it accepts each connection and closes it at once. */
    private ServerSocket answering() throws IOException {
        return answer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    /** Makes the process of a registry port answer from now on: every connection, waiting ones too, accepted and closed. */
    private static ServerSocket answer(ServerSocket server) {
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    server.accept().close();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "answering-registry");
        t.setDaemon(true);
        t.start();
        return server;
    }

    /** Checks as the watch's own thread does, a few times, each probing every slave still running. */
    private static void ticks(SlaveWatch watch, int times) throws IOException, InterruptedException {
        for (int i = 0; i < times; i++) {
            watch.tick();
        }
    }

    /** Checks until the condition holds or 20 s have passed. */
    private static boolean ticksUntil(SlaveWatch watch, BooleanSupplier condition) throws Exception {
        return Deadline.await(() -> {
            try {
                watch.tick();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return condition.getAsBoolean();
        }, Duration.ofSeconds(20), Duration.ofMillis(100));
    }

    private static final SlaveWatch.Timing QUICK = new SlaveWatch.Timing(Duration.ofSeconds(2), Duration.ofMillis(200),
            Duration.ofSeconds(1), null);

    @Test
    void aSlaveWhosePortAcceptsButWhichSaysNothingIsStalledAndTheRunEndsAfterTheOthersAndAGrace() throws Exception {
        Path log = Files.createFile(dir.resolve("jmeter.log"));
        master = new ProcessBuilder("sleep", "120").start();
        registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()); // accepted by the kernel, never read
        SlaveAddress frozen = new SlaveAddress("127.0.0.1", registry.getLocalPort());
        try (ServerSocket live = answering()) {
            SlaveAddress alive = new SlaveAddress("127.0.0.1", live.getLocalPort());
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            SlaveWatch watch = new SlaveWatch(List.of(frozen, alive), Map.of(), log, master,
                    new PrintStream(console, true, StandardCharsets.UTF_8), QUICK);
            assertTrue(ticksUntil(watch, () -> watch.stalled().containsKey(frozen.toString())), console.toString());
            assertEquals(List.of(frozen.toString()), List.copyOf(watch.stalled().keySet()), console.toString());
            assertTrue(watch.stalled().get(frozen.toString()).detail().contains("accepted a connection but the process "
                    + "sent nothing"), watch.stalled().toString());
            assertTrue(watch.lost().isEmpty(), "a silent slave is not a lost one");
            ticks(watch, 1);
            assertTrue(master.isAlive(), "the other slave has not finished yet");

            finished(log, alive);
            assertTrue(ticksUntil(watch, () -> !master.isAlive()), "stopped a grace after the other slave reported its end");
            assertTrue(watch.stoppedMaster());
            assertTrue(console.toString(StandardCharsets.UTF_8).contains("every other slave finished 1 s ago"), console.toString());
            watch.close();
        }
    }

    @Test
    void withNoOtherSlaveTheRunEndsAtItsPlannedLengthAndAGrace() throws Exception {
        Path log = Files.createFile(dir.resolve("jmeter.log"));
        master = new ProcessBuilder("sleep", "120").start();
        registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        SlaveAddress frozen = new SlaveAddress("127.0.0.1", registry.getLocalPort());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        SlaveWatch watch = new SlaveWatch(List.of(frozen), Map.of(), log, master,
                new PrintStream(console, true, StandardCharsets.UTF_8), new SlaveWatch.Timing(Duration.ofSeconds(2),
                        Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(3))).start();
        assertTrue(master.waitFor(30, TimeUnit.SECONDS), console.toString(StandardCharsets.UTF_8));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("the run's planned 3 s and 1 s more have passed"),
                console.toString(StandardCharsets.UTF_8));
        watch.close();
    }

    @Test
    void aSlaveSilentForAWhileThatAnswersAgainIsWaitedForAndNamedAsInterrupted() throws Exception {
        Path log = Files.createFile(dir.resolve("jmeter.log"));
        master = new ProcessBuilder("sleep", "120").start();
        registry = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()); // accepted by the kernel, not read yet
        SlaveAddress back = new SlaveAddress("127.0.0.1", registry.getLocalPort());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        SlaveWatch watch = new SlaveWatch(List.of(back), Map.of(), log, master,
                new PrintStream(console, true, StandardCharsets.UTF_8), QUICK);
        assertTrue(ticksUntil(watch, () -> watch.stalled().containsKey(back.toString())), console.toString());
        answer(registry);
        assertTrue(ticksUntil(watch, () -> watch.interrupted().containsKey(back.toString())), console.toString());
        assertTrue(watch.stalled().isEmpty(), "waited for as before: " + watch.stalled());
        String detail = watch.interrupted().get(back.toString()).detail();
        assertTrue(detail.matches("answered nothing for \\d+\\.\\d s \\(\\d+ probes\\): its RMI port accepted a connection "
                + "but the process sent nothing for 1000 ms; then it answered again"), detail);
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("dsload: slave " + back + " answers again after "),
                console.toString());
        assertTrue(master.isAlive(), "the run waits for the slave that came back");
        watch.close();
    }
}
