package org.dsload.targets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The java executable Cassandra 5.0 runs on. It supports Java 11 and 17 only (on newer ones it
 * fails at start with "Setting a system-wide Policy object is not supported"), so when the JVM
 * running the tests is newer, a JDK 17 or 11 is looked for: {@code -Ddsload.cassandra.java}
 * (a JDK home or a java executable), {@code CASSANDRA_JAVA_HOME}, {@code JAVA_HOME}, then the
 * usual install folders.
 */
public final class CassandraJava {
    private static final Pattern RELEASE_VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)");
    private static Path found;

    private CassandraJava() {
    }

    public static synchronized Path executable() {
        if (found == null) {
            found = find();
        }
        return found;
    }

    private static Path find() {
        List<Path> candidates = new ArrayList<>();
        String explicit = System.getProperty("dsload.cassandra.java");
        if (explicit != null && !explicit.isBlank()) {
            return named(explicit);
        }
        int running = Runtime.version().feature();
        if (supported(running)) {
            Path java = asExecutable(Path.of(System.getProperty("java.home")));
            if (java != null) {
                return java;
            }
        }
        for (String variable : List.of("CASSANDRA_JAVA_HOME", "JAVA_HOME")) {
            String home = System.getenv(variable);
            if (home != null && !home.isBlank()) {
                candidates.add(Path.of(home));
            }
        }
        for (String root : List.of("/usr/lib/jvm", "/usr/java", "/opt/java", "/Library/Java/JavaVirtualMachines")) {
            Path dir = Path.of(root);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> homes = Files.list(dir)) {
                    homes.sorted().forEach(h -> {
                        candidates.add(h);
                        candidates.add(h.resolve("Contents/Home"));
                    });
                } catch (IOException e) {
                    // an unreadable folder holds no candidate
                }
            }
        }
        for (int wanted : new int[] {17, 11}) {
            for (Path home : candidates) {
                Path java = asExecutable(home);
                if (java != null && version(home) == wanted) {
                    return java;
                }
            }
        }
        throw new IllegalStateException("Cassandra 5.0 needs Java 17 (or 11) and none was found (this JVM is Java "
                + running + "): install a JDK 17, or name one with -Ddsload.cassandra.java=<jdk home> "
                + "or CASSANDRA_JAVA_HOME");
    }

    /** The java of a JDK named by the user, refused when it is not one Cassandra runs on. */
    static Path named(String explicit) {
        Path java = asExecutable(Path.of(explicit));
        if (java == null) {
            throw new IllegalStateException("-Ddsload.cassandra.java=" + explicit + " is neither a JDK home nor a java executable");
        }
        // bin/java of a JDK home: its release file says the version
        int version = java.getParent() == null || java.getParent().getParent() == null ? -1
                : version(java.getParent().getParent());
        if (version != -1 && !supported(version)) {
            throw new IllegalStateException("Cassandra 5.0 runs on Java 17 or 11, and -Ddsload.cassandra.java=" + explicit
                    + " is Java " + version + ": name a JDK 17 there");
        }
        return java;
    }

    private static boolean supported(int feature) {
        return feature == 17 || feature == 11;
    }

    private static Path asExecutable(Path path) {
        if (Files.isRegularFile(path) && Files.isExecutable(path)) {
            return path;
        }
        Path java = path.resolve("bin/java");
        return Files.isExecutable(java) ? java : null;
    }

    /** The feature version from the JDK's release file, or -1. */
    private static int version(Path home) {
        Path release = home.resolve("release");
        try {
            Matcher m = RELEASE_VERSION.matcher(Files.readString(release, StandardCharsets.UTF_8));
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
