package org.dsload.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.dsload.process.Folders;
import org.dsload.process.JMeterJvm;
import org.dsload.process.Ports;
import org.dsload.run.PlanRun;
import org.dsload.run.PlanRunner;

/**
 * Makes a JMeter home's class-data archive ({@link JMeterJvm#CLASS_DATA}): one short run of a small
 * plan in a JMeter JVM started as every run starts it, which writes the classes it loaded into the
 * archive as it exits. A JMeter JVM that maps the archive starts with those classes already parsed
 * and verified. The archive belongs to the JDK that made it and to the home's jars as they are: an
 * install makes it again, and a JVM that cannot use it loads the classes from the jars as before.
 */
final class ClassDataArchive {
    private static final String PLAN = "class-data-plan.jmx";
    private static final Duration LIMIT = Duration.ofSeconds(120);

    private ClassDataArchive() {
    }

    /**
     * Makes the archive of {@code home}, replacing any earlier one; says on {@code out} what it made.
     * Failing is no error: without the archive every JMeter JVM loads its classes as before, and the
     * reason is printed.
     */
    static void make(Path home, PrintStream out) {
        Path bin = home.resolve("bin");
        Path archive = bin.resolve(JMeterJvm.CLASS_DATA);
        Path work = null;
        long start = System.nanoTime();
        try {
            Files.deleteIfExists(archive);
            work = Files.createTempDirectory("dsload-class-data-");
            Path plan = work.resolve(PLAN);
            try (InputStream in = ClassDataArchive.class.getResourceAsStream(PLAN)) {
                if (in == null) {
                    throw new IOException(PLAN + " is missing from the jar");
                }
                Files.copy(in, plan);
            }
            Path written = work.resolve(JMeterJvm.CLASS_DATA);
            List<String> jvm = new ArrayList<>(JMeterJvm.heap("256m"));
            jvm.add("-XX:ArchiveClassesAtExit=" + written);
            int closed = Ports.free();
            try {
                PlanRun run = new PlanRun(home, plan).resultsRoot(work.resolve("results")).runId("class-data")
                        .dashboard(false).timeout(LIMIT).jvmArgs(jvm).property("hosts", "127.0.0.1:" + closed);
                new PlanRunner(new PrintStream(OutputStream.nullOutputStream())).run(run);
            } finally {
                Ports.release(closed);
            }
            if (!Files.isRegularFile(written) || Files.size(written) == 0) {
                out.println("no class-data archive made (JMeter's JVM wrote none; see " + work + "): JMeter JVMs load"
                        + " their classes from the jars");
                work = null; // kept for the reader
                return;
            }
            Files.move(written, archive, StandardCopyOption.REPLACE_EXISTING);
            out.printf(Locale.ROOT, "class-data archive: %s (%d MiB, made in %.1f s)%n", home.relativize(archive),
                    Files.size(archive) >> 20, (System.nanoTime() - start) / 1e9);
        } catch (IOException | RuntimeException e) {
            out.println("no class-data archive made (" + e.getMessage() + "): JMeter JVMs load their classes from the jars");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (work != null) {
                try {
                    Folders.deleteTree(work);
                } catch (IOException e) {
                    // a temporary folder left behind
                }
            }
        }
    }
}
