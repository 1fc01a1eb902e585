package org.dsload.targets;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.dsload.process.ProcessTree;

/**
 * The class path of a server dsload forks, resolved by Maven from
 * {@code embedded-targets/<module>/pom.xml} with the checkout's own wrapper and kept in
 * {@code target/embedded/<module>-classpath.txt}. It is resolved again when the pom is newer than
 * that file or a jar it lists has gone from the local repository. A file lock keeps two JVMs
 * (tests, the main job, a serve) from resolving the same module at the same time. No server jar
 * is ever on dsload's own class path.
 */
public final class TargetClasspath {
    public static final String CASSANDRA = "cassandra";
    public static final String KAIROSDB = "kairosdb";
    public static final String ZOOKEEPER = "zookeeper";
    public static final String REDIS = "redis";
    private static final Duration RESOLVE_LIMIT = Duration.ofMinutes(10);
    /**
     * Environment variable with extra options for the JVMs of the Java servers forked with these
     * class paths (Cassandra, KairosDB, ZooKeeper), after dsload's own so that they win.
     */
    public static final String SERVER_OPTIONS_ENV = "DSLOAD_SERVER_JAVA_OPTS";

    private TargetClasspath() {
    }

    /** The options of {@link #SERVER_OPTIONS_ENV}, for a server JVM's command line. */
    static List<String> serverOptions() {
        return org.dsload.process.Java.optionsFrom(SERVER_OPTIONS_ENV);
    }

    public static Path pom(String module) {
        return Checkout.basedir().resolve("embedded-targets").resolve(module).resolve("pom.xml");
    }

    public static List<Path> jars(String module) {
        synchronized (TargetClasspath.class) {
            return resolved(module);
        }
    }

    /** The jars joined with the platform's path separator, as {@code -cp} takes them. */
    public static String joined(String module) {
        return String.join(File.pathSeparator, jars(module).stream().map(Path::toString).toList());
    }

    private static List<Path> resolved(String module) {
        Path pom = pom(module);
        if (!Files.isRegularFile(pom)) {
            throw new IllegalStateException("no " + pom + ": the " + module + " server's class path is defined there; "
                    + "run dsload from a checkout (or set DSLOAD_HOME to one)");
        }
        Path dir = Checkout.target().resolve("embedded");
        Path cached = dir.resolve(module + "-classpath.txt");
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile = FileChannel.open(dir.resolve(module + "-classpath.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = lockFile.lock()) {
                List<Path> jars = read(cached, pom);
                if (jars == null) {
                    resolve(module, pom, cached, dir.resolve(module + "-classpath.log"));
                    jars = read(cached, pom);
                    if (jars == null) {
                        throw new IllegalStateException("Maven wrote no usable class path to " + cached);
                    }
                }
                return jars;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the " + module + " class path: " + e.getMessage(), e);
        }
    }

    /** The cached class path, or null when it is missing, older than the pom or lists a missing jar. */
    private static List<Path> read(Path cached, Path pom) throws IOException {
        if (!Files.isRegularFile(cached)
                || Files.getLastModifiedTime(cached).compareTo(Files.getLastModifiedTime(pom)) < 0) {
            return null;
        }
        String text = Files.readString(cached, StandardCharsets.UTF_8).strip();
        List<Path> jars = new ArrayList<>();
        for (String entry : text.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path jar = Path.of(entry);
            if (!Files.isRegularFile(jar)) {
                return null;
            }
            jars.add(jar);
        }
        return jars.isEmpty() ? null : jars;
    }

    private static void resolve(String module, Path pom, Path cached, Path log) throws IOException {
        Path wrapper = Checkout.basedir().resolve("mvnw");
        if (!Files.isExecutable(wrapper)) {
            throw new IOException("no Maven wrapper at " + wrapper + " to resolve " + pom + " with");
        }
        // the first time this downloads the server's jars, which can take minutes: say what is happening
        System.out.println("dsload: resolving the " + module + " server's class path with the Maven wrapper "
                + "(once; see " + log + ")");
        Path partial = cached.resolveSibling(cached.getFileName() + ".partial");
        List<String> command = List.of(wrapper.toString(), "-q", "-B", "-f", pom.toString(),
                "dependency:build-classpath", "-Dmdep.outputFile=" + partial);
        Process maven = new ProcessBuilder(command).directory(Checkout.basedir().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!ProcessTree.awaitExit(maven, RESOLVE_LIMIT)) {
                ProcessTree.kill(maven.toHandle());
                throw new IOException("Maven did not resolve " + pom + " within " + RESOLVE_LIMIT.toMinutes()
                        + " minutes; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ProcessTree.kill(maven.toHandle());
            throw new IOException("interrupted while resolving " + pom, e);
        }
        if (maven.exitValue() != 0 || !Files.isRegularFile(partial)) {
            throw new IOException("Maven failed to resolve " + pom + " (exit " + maven.exitValue() + "): "
                    + Files.readString(log, StandardCharsets.UTF_8).strip());
        }
        Files.move(partial, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
