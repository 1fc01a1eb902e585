package org.dsload.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.dsload.chaos.proxy.FaultProxy;
import org.dsload.chaos.proxy.ProxyControl;
import org.dsload.process.Ports;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.targets.MonkeyCluster;
import org.dsload.testing.HostPrivileges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A JMeter process running a fault schedule is killed (SIGKILL: no shutdown hook runs) while four
 * faults are in force: a proxy delay, a paused process, a full volume, a memory hog. They stay;
 * {@code dsload revert <run folder>}, the command a user runs, undoes every one from the records.
 */
@Timeout(240)
class RevertAfterCrashIT {

    @Test
    void revertUndoesEveryFaultAKilledJMeterLeftBehind() throws Exception {
        HostPrivileges.require("disk full on a size-limited tmpfs", "mount");
        Path work = Checkout.work("revert-after-crash");
        Path volume = work.resolve("volume");
        Files.createDirectories(volume);
        assertTrue(MonkeyCluster.Volume.mount(volume, 16), "a size-limited tmpfs needs root");
        Process sleeper = new ProcessBuilder("sleep", "300").redirectInput(new File("/dev/null")).start();
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                FaultProxy proxy = FaultProxy.start(List.of(new FaultProxy.RouteSpec("redis",
                        new InetSocketAddress("127.0.0.1", Ports.free()), new InetSocketAddress(redis.host(), redis.port()))),
                        new InetSocketAddress("127.0.0.1", 0))) {
            Path plan = work.resolve("crash-schedule.jmx");
            try (InputStream in = getClass().getResourceAsStream("crash-schedule.jmx")) {
                Files.copy(in, plan, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Path results = work.resolve("results");
            PlanRun run = new PlanRun(Checkout.jmeterHome(), plan).resultsRoot(results).runId("crash").timeout(Duration.ofMinutes(3))
                    .dashboard(false).jvmArgs(List.of("-Xms128m", "-Xmx256m"))
                    .property("fault_proxy", proxy.controlAddress()).property("sleeper_pid", Long.toString(sleeper.pid()))
                    .property("volume", volume.toString());
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            CompletableFuture<PlanRunner.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
                try {
                    return new PlanRunner(new PrintStream(console, true, StandardCharsets.UTF_8)).run(run);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Path records = awaitRecords(results, 4, outcome, console);

            ProcessHandle jmeter = ProcessHandle.current().descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains("ApacheJMeter")).findFirst().orElseThrow();
            jmeter.destroyForcibly();
            outcome.get(60, TimeUnit.SECONDS);
            assertFalse(jmeter.isAlive());

            // the crash left every fault in force
            assertTrue(ProxyControl.send(proxy.controlAddress(), "STATE").contains("delay"), "the delay stays");
            assertEquals('T', state(sleeper.pid()), "the process stays paused");
            assertTrue(volume.toFile().getUsableSpace() < 64 * 1024, "the volume stays full");
            assertEquals(4, AppliedFaults.recorded(records).size());

            Path runDir = records.getParent();
            Result revert = dsload("revert", runDir.toString());
            assertEquals(0, revert.exit(), revert.output());
            assertTrue(revert.output().contains("4 of 4 fault(s) reverted"), revert.output());
            assertTrue(ProxyControl.send(proxy.controlAddress(), "STATE").startsWith("redis none"), "the delay is gone");
            assertTrue(state(sleeper.pid()) != 'T', "the process runs again");
            assertTrue(volume.toFile().getUsableSpace() > 15L << 20, "the volume's space is back");
            assertTrue(AppliedFaults.recorded(records).isEmpty(), "no record is left");
            assertFalse(ProcessHandle.allProcesses().anyMatch(h -> h.info().commandLine().orElse("")
                    .contains("org.dsload.chaos.Hog") && h.info().commandLine().orElse("").contains("memory")), "no hog runs");
            Result again = dsload("revert", runDir.toString());
            assertEquals(0, again.exit(), again.output());
            assertTrue(again.output().contains("no applied fault recorded"), again.output());
        } finally {
            sleeper.destroyForcibly();
            MonkeyCluster.Volume.unmount(volume);
        }
    }

    private static Path awaitRecords(Path results, int count, CompletableFuture<?> run, ByteArrayOutputStream console)
            throws Exception {
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline && !run.isDone()) {
            try (Stream<Path> found = Files.exists(results) ? Files.walk(results) : Stream.empty()) {
                List<Path> dirs = found.filter(p -> p.getFileName().toString().equals(AppliedFaults.FOLDER)).toList();
                for (Path d : dirs) {
                    if (AppliedFaults.recorded(d).size() >= count) {
                        return d;
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the schedule did not record " + count + " faults: " + console.toString(StandardCharsets.UTF_8));
    }

    private static char state(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        return stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
    }

    private record Result(int exit, String output) {
    }

    /** The dsload command as a user runs it: java -jar lib/ext/dsload-*.jar ... */
    private static Result dsload(String... args) throws Exception {
        Path jar;
        try (Stream<Path> jars = Files.list(Checkout.jmeterHome().resolve("lib").resolve("ext"))) {
            jar = jars.filter(p -> p.getFileName().toString().matches("dsload-.*\\.jar")).findFirst().orElseThrow();
        }
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                jar.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(new File("/dev/null")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(p.exitValue(), out);
    }
}
