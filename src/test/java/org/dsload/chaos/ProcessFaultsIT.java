package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.dsload.process.Ports;
import org.dsload.targets.Checkout;
import org.dsload.targets.MonkeyCluster;
import org.dsload.targets.RedisBinary;
import org.dsload.testing.HostPrivileges;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The process driver's faults on a real redis-server started the way an operator's start command
 * would (a pid file, a start command the driver runs again), and on this host: kill, restart,
 * pause, CPU and memory hogs, disk full on a size-limited volume. Each is observed while applied
 * and gone after its revert.
 */
@Timeout(180)
@Tag("alone") // measures processes' CPU time: no other test JVM beside it
class ProcessFaultsIT {
    private static final ProcessDriver DRIVER = new ProcessDriver();
    private static Path dir;
    private static Path pidfile;
    private static int port;
    private static Target node;
    private static FaultDriver.Applied inForce;

    @BeforeAll
    static void start() throws Exception {
        dir = Checkout.work("process-faults");
        Files.createDirectories(dir);
        pidfile = dir.resolve("redis.pid");
        port = Ports.free();
        String start = "exec " + RedisBinary.path() + " --port " + port + " --bind 127.0.0.1 --save '' --appendonly no"
                + " --protected-mode no --daemonize no --dir " + dir;
        node = new Target("redis", Map.of("host", "127.0.0.1", "port", Integer.toString(port), "pidfile",
                pidfile.toString(), "start", start, "log", dir.resolve("redis.log").toString(), "data", dir.toString()));
        FaultRecord first = new FaultRecord("first-start", "start", "kill", "redis", ProcessDriver.NAME);
        node.attributes().forEach((k, v) -> first.put("target." + k, v));
        NodeStart.start(first, 30_000);
    }

    @AfterAll
    static void stop() throws Exception {
        if (Files.exists(pidfile)) {
            long pid = Long.parseLong(Files.readString(pidfile, StandardCharsets.UTF_8).trim());
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroyForcibly();
                p.onExit().join();
            });
        }
    }

    /** A test that failed half way reverts its fault here, so the next one starts clean. */
    @AfterEach
    void revertLeftover() throws Exception {
        if (inForce != null) {
            FaultDriver.Applied a = inForce;
            inForce = null;
            DRIVER.revert(a.record());
        }
    }

    private static FaultDriver.Applied apply(FaultKind kind, Map<String, String> params) throws Exception {
        inForce = DRIVER.apply(Faults.spec(kind, node, params, Faults.proxySettings("")));
        return inForce;
    }

    private static String revert(FaultDriver.Applied applied) throws Exception {
        inForce = null;
        return DRIVER.revert(applied.record());
    }

    private static String ping(int timeoutMillis) {
        try (Jedis jedis = new Jedis("127.0.0.1", port, timeoutMillis)) {
            return jedis.ping();
        }
    }

    @Test
    void killClosesThePortAndTheRevertStartsTheNodeAgain() throws Exception {
        long before = node.pid();
        assertEquals("PONG", ping(2000));
        FaultDriver.Applied applied = apply(FaultKind.KILL, Map.of());
        assertFalse(ProcessHandle.of(before).map(ProcessHandle::isAlive).orElse(false), "the process is gone");
        assertFalse(Ports.open("127.0.0.1", port), "the port is closed: " + applied.message());
        assertThrows(JedisConnectionException.class, () -> ping(1000));
        String done = revert(applied);
        assertNotEquals(before, node.pid(), "the pid file names the new process");
        assertTrue(ProcessHandle.of(node.pid()).orElseThrow().isAlive(), done);
        assertEquals("PONG", ping(2000));
    }

    @Test
    void restartStartsANewProcessThatAnswers() throws Exception {
        long before = node.pid();
        FaultDriver.Applied applied = apply(FaultKind.RESTART, Map.of());
        assertNotEquals(before, node.pid(), applied.message());
        assertEquals("PONG", ping(2000));
        assertEquals("nothing to undo", revert(applied));
    }

    @Test
    void pauseStopsAnswersUntilTheRevertResumesTheProcess() throws Exception {
        long pid = node.pid();
        FaultDriver.Applied applied = apply(FaultKind.PAUSE, Map.of());
        assertEquals('T', state(pid), "the process is stopped");
        long t = System.nanoTime();
        assertThrows(JedisConnectionException.class, () -> ping(700), "a paused node answers nothing");
        assertTrue((System.nanoTime() - t) / 1_000_000 >= 600, "the request ran into the client's timeout");
        revert(applied);
        assertNotEquals('T', state(pid));
        assertEquals("PONG", ping(2000));
    }

    @Test
    void cpuHogBurnsItsShareOfTheCoresUntilReverted() throws Exception {
        FaultDriver.Applied applied = apply(FaultKind.CPU, Map.of("percent", "50%"));
        long hog = Long.parseLong(applied.record().require("hog.pid"));
        double cores = cpuSeconds(hog, 2000) / 2.0;
        int available = Runtime.getRuntime().availableProcessors();
        System.out.printf("dsload: CPU hog at 50 %% of %d cores used %.2f cores%n", available, cores);
        // half of every core is asked for; a busy shared machine gives less, never nothing
        assertTrue(cores > 0.25 && cores < 0.75 * available + 0.2,
                "the hog used " + cores + " cores of " + available + ": " + applied.message());
        revert(applied);
        assertFalse(ProcessHandle.of(hog).map(ProcessHandle::isAlive).orElse(false), "the hog ended");
    }

    @Test
    void memoryHogHoldsItsShareOfTheRamUntilReverted() throws Exception {
        long total = Hogs.memInfo("MemTotal");
        FaultDriver.Applied applied = apply(FaultKind.MEMORY, Map.of("percent", "2%"));
        long hog = Long.parseLong(applied.record().require("hog.pid"));
        long resident = residentBytes(hog);
        System.out.printf("dsload: memory hog at 2 %% of %d MiB holds %d MiB resident%n", total >> 20, resident >> 20);
        assertTrue(resident >= total / 50 * 9 / 10, "the hog holds " + (resident >> 20) + " MiB: " + applied.message());
        revert(applied);
        assertFalse(ProcessHandle.of(hog).map(ProcessHandle::isAlive).orElse(false), "the hog ended");
    }

    @Test
    void diskFullTakesTheVolumesSpaceAndTheRevertFreesIt() throws Exception {
        HostPrivileges.require("disk full on a size-limited tmpfs", "mount");
        Path volume = Checkout.work("process-faults-volume");
        Files.createDirectories(volume);
        assertTrue(MonkeyCluster.Volume.mount(volume, 32), "a size-limited tmpfs needs root");
        try {
            Target onVolume = new Target("redis", Map.of("data", volume.toString()));
            long free = volume.toFile().getUsableSpace();
            FaultDriver.Applied applied = DRIVER.apply(Faults.spec(FaultKind.DISK, onVolume, Map.of(),
                    Faults.proxySettings("")));
            inForce = applied;
            long left = volume.toFile().getUsableSpace();
            assertTrue(left < 64 * 1024, "the volume is full: " + left + " bytes left of " + free + "; " + applied.message());
            revert(applied);
            assertTrue(volume.toFile().getUsableSpace() >= free - 64 * 1024, "the space is back");
            try (var files = Files.list(volume)) {
                assertEquals(List.of(), files.toList(), "the fill file is gone");
            }
        } finally {
            MonkeyCluster.Volume.unmount(volume);
        }
    }

    @Test
    void diskFullRefusesAVolumeLargerThanItsLimit() {
        Target onBuildDisk = new Target("redis", Map.of("data", dir.toString()));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DRIVER.apply(Faults.spec(FaultKind.DISK,
                onBuildDisk, Map.of("max", "1MiB"), Faults.proxySettings(""))));
        assertTrue(e.getMessage().contains("never fill a host's main disk"), e.getMessage());
    }

    private static char state(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
    }

    /** CPU seconds (user + system) a process used during the next interval. */
    static double cpuSeconds(long pid, long millis) throws Exception {
        long before = ticks(pid);
        Thread.sleep(millis);
        return (ticks(pid) - before) / 100.0;
    }

    private static long ticks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    static long residentBytes(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }
}
