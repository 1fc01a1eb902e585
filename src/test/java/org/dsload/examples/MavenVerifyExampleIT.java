package org.dsload.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.dsload.process.Folders;
import org.dsload.process.Ports;
import org.dsload.report.JUnitReportTest;
import org.dsload.targets.Checkout;
import org.dsload.targets.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * examples/maven-verify, built by Maven as a user builds it: a copy of the example project, with
 * the dsload artifact this build made in a local repository of its own (in front of the usual one,
 * which stays untouched), runs ekv-profile-get.jmx in verify against a real redis-server.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class MavenVerifyExampleIT {
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(3);

    private static EmbeddedRedis redis;
    private static Path work;
    private static Path repository;

    record Outcome(int exitCode, String output) {
    }

    @BeforeAll
    static void prepare() throws IOException {
        work = Checkout.target().resolve("maven-verify");
        Path project = work.resolve("project");
        Folders.deleteTree(project);
        Files.createDirectories(project);
        Files.copy(Checkout.basedir().resolve("examples/maven-verify/pom.xml"), project.resolve("pom.xml"));
        // What `./mvnw install` would put into the local repository: this build's jar and pom.
        repository = work.resolve("repository");
        Path artifact = repository.resolve("org/dsload/dsload/" + version());
        Files.createDirectories(artifact);
        Files.copy(jar(), artifact.resolve("dsload-" + version() + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(Checkout.basedir().resolve("pom.xml"), artifact.resolve("dsload-" + version() + ".pom"),
                StandardCopyOption.REPLACE_EXISTING);
        redis = EmbeddedRedis.start();
    }

    @AfterAll
    static void stop() {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void passesAgainstARedisThatKeepsTheLimits() throws Exception {
        Outcome build = verify("passes", "-Dhosts=" + redis.address(), "-Dmax.p95=5s", "-Dmax.p99=5s");
        assertEquals(0, build.exitCode(), build.output());
        assertTrue(build.output().contains("Failures:                    0.0% (1.0% accepted)"), build.output());
        assertTrue(build.output().contains("Resolution: microseconds for every sample."), build.output());
        assertTrue(build.output().matches("(?s).*ok      GET profile: p99 \\S+, within 5s.*"), build.output());
        assertTrue(build.output().contains("dsload check: passed"), build.output());
        assertTrue(build.output().contains("dsload check report " + report() + ": 2 limits, 0 not kept"),
                "the build read the report back:\n" + build.output());
        assertEquals(jarNames(Checkout.basedir().resolve("jmeter-plugins/lib")),
                jarNames(work.resolve("project/target/dsload-lib")), "JMeter gets the bundle's libraries, no more");
    }

    @Test
    void failsWhenTheP99LimitIsBelowTheMeasuredP99() throws Exception {
        Outcome build = verify("p99-fails", "-Dhosts=" + redis.address(), "-Dmax.p95=5s", "-Dmax.p99=1us");
        assertNotEquals(0, build.exitCode(), build.output());
        assertTrue(build.output().contains("Failures:                    0.0% (1.0% accepted)"), "no failed samples:\n"
                + build.output());
        assertTrue(build.output().matches("(?s).*FAILED  GET profile: p99 \\S+ is above the limit 1µs.*"), build.output());
        assertTrue(build.output().contains("dsload check: FAILED, 1 limit not kept: GET profile p99"), build.output());
        assertTrue(build.output().contains("dsload check report " + report() + ": 2 limits, 1 not kept"),
                "the build read the report back:\n" + build.output());
        assertTrue(build.output().contains("maven-antrun-plugin:3.1.0:run (dsload-report) on project maven-verify"),
                build.output());
        String xml = Files.readString(report(), StandardCharsets.UTF_8);
        JUnitReportTest.validate(xml);
        assertTrue(xml.matches("(?s).*<testcase name=\"GET profile p99 &lt;= 1µs\" classname=\"dsload.ekv-profile-get\""
                + " time=\"0\">\\s*<failure message=\"GET profile: p99 \\S+ is above the limit 1µs\".*"), xml);
    }

    @Test
    void failsOnTheErrorRateWhenTheTargetIsDown() throws Exception {
        Outcome build = verify("errors-fail", "-Dhosts=127.0.0.1:" + Ports.free());
        assertNotEquals(0, build.exitCode(), build.output());
        assertTrue(build.output().contains("Failures:                    100.0% (1.0% accepted)"), build.output());
        assertTrue(build.output().contains("jmeter-maven-plugin:3.8.0:results (error-rate) on project maven-verify"),
                build.output());
    }

    /** Where the example's check leaves its JUnit report. */
    private static Path report() {
        return work.resolve("project/target/dsload-reports/TEST-dsload-check.xml");
    }

    private static Outcome verify(String name, String... properties) throws IOException, InterruptedException {
        Path base = Checkout.basedir();
        List<String> command = new ArrayList<>(List.of(base.resolve("mvnw").toString(), "-B", "--no-transfer-progress",
                "-f", work.resolve("project/pom.xml").toString(), "clean", "verify",
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + usualRepository(),
                "-Dplans.directory=" + base.resolve("test-plans"),
                // readers that pause 1 ms between GETs: the build's verdicts are judged, not the load's volume
                "-Dthreads=2", "-Dduration=3", "-Dprofiles=300", "-Dthink_ms=1"));
        command.addAll(List.of(properties));
        Path log = work.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(base.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process maven = builder.start();
        try {
            if (!maven.waitFor(BUILD_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                fail("the example's build did not end within " + BUILD_LIMIT.toMinutes() + " min; see " + log);
            }
        } finally {
            maven.descendants().forEach(ProcessHandle::destroyForcibly);
            maven.destroyForcibly();
        }
        return new Outcome(maven.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** The local repository this build reads from, found where it took JUnit from. */
    private static Path usualRepository() {
        try {
            Path jar = Path.of(Test.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // <repository>/org/junit/jupiter/junit-jupiter-api/<version>/<jar>
            return jar.getParent().getParent().getParent().getParent().getParent().getParent();
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where the local Maven repository is", e);
        }
    }

    private static String version() {
        String name = jar().getFileName().toString();
        return name.substring("dsload-".length(), name.length() - ".jar".length());
    }

    private static Path jar() {
        try (Stream<Path> jars = Files.list(Checkout.basedir().resolve("jmeter-plugins/lib/ext"))) {
            return jars.filter(p -> p.getFileName().toString().matches("dsload-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no dsload jar: run ./mvnw package first"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> jarNames(Path dir) throws IOException {
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).sorted().toList();
        }
    }
}
