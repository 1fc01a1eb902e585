package org.dsload.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class path of the Cassandra server, resolved by Maven from
 * {@code embedded-targets/cassandra/pom.xml} with the project's own wrapper and kept in
 * {@code target/embedded/cassandra-classpath.txt}. It is resolved again when the pom is newer than
 * that file or a jar it lists has gone from the local repository. A file lock keeps two JVMs
 * (tests, the main job, a benchmark) from resolving it at the same time.
 */
public final class CassandraClasspath {
    private static final long RESOLVE_LIMIT_MINUTES = 10;

    private CassandraClasspath() {
    }

    public static Path pom() {
        return Build.basedir().resolve("embedded-targets/cassandra/pom.xml");
    }

    public static synchronized List<Path> jars() {
        Path pom = pom();
        if (!Files.isRegularFile(pom)) {
            throw new IllegalStateException("no " + pom + ": the Cassandra server's class path is defined there");
        }
        Path dir = Build.target().resolve("embedded");
        Path cached = dir.resolve("cassandra-classpath.txt");
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile = FileChannel.open(dir.resolve("cassandra-classpath.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = lockFile.lock()) {
                List<Path> jars = read(cached, pom);
                if (jars == null) {
                    resolve(pom, cached, dir.resolve("cassandra-classpath.log"));
                    jars = read(cached, pom);
                    if (jars == null) {
                        throw new IllegalStateException("Maven wrote no usable class path to " + cached);
                    }
                }
                return jars;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the Cassandra class path: " + e.getMessage(), e);
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
        for (String entry : text.split(java.io.File.pathSeparator)) {
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

    private static void resolve(Path pom, Path cached, Path log) throws IOException {
        Path wrapper = Build.basedir().resolve("mvnw");
        Path partial = cached.resolveSibling(cached.getFileName() + ".partial");
        List<String> command = List.of(wrapper.toString(), "-q", "-B", "-f", pom.toString(),
                "dependency:build-classpath", "-Dmdep.outputFile=" + partial);
        Process maven = new ProcessBuilder(command).directory(Build.basedir().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!maven.waitFor(RESOLVE_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                maven.destroyForcibly();
                throw new IOException("Maven did not resolve " + pom + " within " + RESOLVE_LIMIT_MINUTES
                        + " minutes; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            maven.destroyForcibly();
            throw new IOException("interrupted while resolving " + pom, e);
        }
        if (maven.exitValue() != 0 || !Files.isRegularFile(partial)) {
            throw new IOException("Maven failed to resolve " + pom + " (exit " + maven.exitValue() + "): "
                    + Files.readString(log, StandardCharsets.UTF_8).strip());
        }
        Files.move(partial, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
