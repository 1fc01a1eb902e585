package org.dsload.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

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
    private static final int ATTEMPTS = 3;

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
        Path launcher = bin.resolve(JMeterJvm.LAUNCHER);
        Path work = null;
        long start = System.nanoTime();
        boolean made = false;
        try {
            Files.deleteIfExists(archive);
            writeLauncher(home, launcher);
            work = Files.createTempDirectory("dsload-class-data-");
            Path plan = work.resolve(PLAN);
            try (InputStream in = ClassDataArchive.class.getResourceAsStream(PLAN)) {
                if (in == null) {
                    throw new IOException(PLAN + " is missing from the jar");
                }
                Files.copy(in, plan);
            }
            Path written = work.resolve(JMeterJvm.CLASS_DATA);
            // JDK 17's JVM can crash while it writes the archive (in its lambda-proxy step, an hs_err file
            // in the run's folder); seen on a machine's first JMeter runs, and the next attempt wrote it
            int attempt = 1;
            while (!runOnce(home, plan, work.resolve("results-" + attempt), written) && attempt < ATTEMPTS) {
                attempt++;
            }
            if (!Files.isRegularFile(written) || Files.size(written) == 0) {
                out.println("no class-data archive made (JMeter's JVM wrote none in " + ATTEMPTS + " attempts; see "
                        + work + "): JMeter JVMs load their classes from the jars");
                work = null; // kept for the reader
                return;
            }
            Files.move(written, archive, StandardCopyOption.REPLACE_EXISTING);
            made = true;
            out.printf(Locale.ROOT, "class-data archive: %s (%d MiB, made in %.1f s%s)%n", home.relativize(archive),
                    Files.size(archive) >> 20, (System.nanoTime() - start) / 1e9,
                    attempt == 1 ? "" : ", by attempt " + attempt + " of " + ATTEMPTS);
        } catch (IOException | RuntimeException e) {
            out.println("no class-data archive made (" + e.getMessage() + "): JMeter JVMs load their classes from the jars");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!made) {
                // the launcher is there for the archive: without one, JMeter starts as it always does
                deleteQuietly(launcher);
            }
            if (work != null) {
                try {
                    Folders.deleteTree(work);
                } catch (IOException e) {
                    // a temporary folder left behind
                }
            }
        }
    }

    /** One run of the plan in a JVM that writes the archive as it exits; true when it wrote one. */
    private static boolean runOnce(Path home, Path plan, Path results, Path written)
            throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>(JMeterJvm.heap("256m"));
        jvm.add("-XX:ArchiveClassesAtExit=" + written);
        int closed = Ports.free();
        try {
            PlanRun run = new PlanRun(home, plan).resultsRoot(results).runId("class-data")
                    .dashboard(false).timeout(LIMIT).jvmArgs(jvm).property("hosts", "127.0.0.1:" + closed);
            new PlanRunner(new PrintStream(OutputStream.nullOutputStream())).run(run);
        } finally {
            Ports.release(closed);
        }
        return Files.isRegularFile(written) && Files.size(written) > 0;
    }

    /** Removes the home's archive and launcher, if any: its JMeter JVMs start from JMeter's own jar. */
    static void remove(Path home) throws IOException {
        Files.deleteIfExists(home.resolve("bin").resolve(JMeterJvm.CLASS_DATA));
        Files.deleteIfExists(home.resolve("bin").resolve(JMeterJvm.LAUNCHER));
    }

    /**
     * Writes the home's launcher ({@link JMeterJvm#LAUNCHER}): a jar of one manifest whose class path
     * names, relative to {@code bin/}, JMeter's jar and then the jars of {@code lib/}, {@code lib/ext/}
     * and {@code lib/junit/}, each folder sorted as JMeter's launcher sorts it, and whose main class is
     * JMeter's. The archive is made through it, so both hold the same class path.
     */
    static void writeLauncher(Path home, Path launcher) throws IOException {
        List<String> entries = new ArrayList<>();
        entries.add(relative(home, JMeterJvm.jmeterJar(home)));
        for (String folder : List.of("lib", "lib/ext", "lib/junit")) {
            Path dir = home.resolve(folder);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                        .map(p -> p.getFileName().toString()).sorted()
                        .forEach(name -> entries.add(relative(home, dir.resolve(name))));
            }
        }
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, "org.apache.jmeter.NewDriver");
        main.put(Attributes.Name.CLASS_PATH, String.join(" ", entries));
        Path written = launcher.resolveSibling(launcher.getFileName() + ".new");
        // the manifest is the jar's only entry: written as the stream opens, finished as it closes
        new JarOutputStream(Files.newOutputStream(written), manifest).close();
        Files.move(written, launcher, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A jar's URL relative to the home's bin/, as a manifest's class path takes it (spaces and all escaped). */
    private static String relative(Path home, Path jar) {
        String path = home.resolve("bin").toAbsolutePath().normalize().relativize(jar.toAbsolutePath().normalize())
                .toString().replace(java.io.File.separatorChar, '/');
        try {
            return new URI(null, null, path, null).getRawPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(path, e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // left behind; the next install replaces it
        }
    }
}
