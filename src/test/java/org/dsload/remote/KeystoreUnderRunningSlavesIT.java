package org.dsload.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import org.dsload.cli.ExitCodes;
import org.dsload.plans.PlanRuns;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.dsload.testing.DsloadProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Slaves that {@code dsload slaves start} left running: a run on them records the server's gauges
 * as a run's own slaves do; their RMI keystore, deleted or replaced while they run, is not made
 * again under them, and a run with another key says that the keys differ, with dsload's message
 * alone instead of JMeter's SSLHandshakeException.
 */
@Timeout(400)
class KeystoreUnderRunningSlavesIT {
    private static final Duration LIMIT = Duration.ofMinutes(3);

    @Test
    void aKeystoreIsNotMadeAgainUnderRunningSlavesAndOtherKeysAreNamed() throws Exception {
        Path base = Files.createDirectories(Checkout.target().resolve("test-results")
                .resolve("keystore-in-use-" + System.nanoTime()));
        Path remote = base.resolve("remote");
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            // started in the test's folder: a slave without a run folder records into dsload-recordings/ of its working
            // directory, which would otherwise be the checkout's
            try (DsloadProcess start = DsloadProcess.startIn(base, "slaves", "start", "-n", "1", "--remote-dir", remote.toString(),
                    "--logs", base.resolve("slave-logs").toString(), "--heap", "256m")) {
                assertEquals(ExitCodes.OK, start.exitCode(LIMIT), start.output());
                assertTrue(start.output().contains("stop them:    bin/dsload slaves stop --remote-dir " + remote),
                        start.output());
                assertTrue(start.output().contains("--hosts-file " + remote.resolve("local.hosts") + " --remote-dir " + remote),
                        start.output());
            }
            try {
                // a slave without a run folder records the server's gauges as one the run starts: the
                // runner fetches them, and the summary has the gauges and the cross-check
                try (DsloadProcess run = run(remote, redis)) {
                    assertEquals(ExitCodes.OK, run.exitCode(LIMIT), run.output());
                    String summary = Files.readString(run.resultsDir().resolve("summary.txt"));
                    assertTrue(summary.contains("== Redis server gauges"), summary);
                    assertTrue(summary.lines().anyMatch(l -> l.startsWith("Cross-check [dsload reported, server counted]")
                            && l.contains(" (match) commands GET, SET")), summary);
                    try (var files = Files.list(run.resultsDir())) {
                        assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".png")).toList(), "--no-charts");
                    }
                }
                Path keystore = remote.resolve(RmiKeystore.KEYSTORE);
                Files.delete(keystore);
                try (DsloadProcess make = DsloadProcess.start("slaves", "keystore", "--remote-dir", remote.toString())) {
                    assertEquals(ExitCodes.FAILED, make.exitCode(LIMIT), make.output());
                    assertTrue(make.output().contains("the slaves started with it still run: 127.0.0.2:"), make.output());
                    assertTrue(make.output().contains("dsload slaves stop --remote-dir " + remote.toAbsolutePath()), make.output());
                }
                try (DsloadProcess run = run(remote, redis)) {
                    assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
                    assertTrue(run.output().contains("is missing, and the slaves started with it still run"), run.output());
                }
                assertFalse(Files.exists(keystore), "no keystore was made under the running slave");

                // a keystore copied in from elsewhere: the master's key is not the slave's
                Path other = base.resolve("other");
                RmiKeystore.ensure(other, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
                for (String file : new String[] {RmiKeystore.KEYSTORE, RmiKeystore.PASSWORD_FILE}) {
                    Files.copy(other.resolve(file), remote.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                }
                try (DsloadProcess run = run(remote, redis)) {
                    assertEquals(ExitCodes.REFUSED_AT_START, run.exitCode(LIMIT), run.output());
                    assertTrue(run.output().contains(" refused this master's RMI key (" + remote.toAbsolutePath().normalize()
                            .resolve(RmiKeystore.KEYSTORE) + "): the slaves hold another RMI key than this master"),
                            run.output());
                    assertFalse(run.output().contains("SSLHandshakeException"), "dsload's message alone:\n" + run.output());
                    assertFalse(run.output().contains("JMeter pid"), "no JMeter was started to fail:\n" + run.output());
                }
            } finally {
                try (DsloadProcess stop = DsloadProcess.start("slaves", "stop", "--remote-dir", remote.toString())) {
                    assertEquals(ExitCodes.OK, stop.exitCode(LIMIT), stop.output());
                }
            }
        }
    }

    private static DsloadProcess run(Path remote, EmbeddedRedis redis) throws Exception {
        return DsloadProcess.start("run", PlanRuns.plan("ekv-profile-get.jmx").toString(), "--results",
                remote.getParent().resolve("results").toString(), "--no-dashboard", "--no-charts", "--hosts-file",
                remote.resolve("local.hosts").toString(), "--remote-dir", remote.toString(), "-Jhosts=" + redis.address(),
                "-Jduration=2", "-Jthreads=1", "-Jprofiles=10", "-Jloops=1000"); // 1,000 GETs: a run, not a load
    }
}
