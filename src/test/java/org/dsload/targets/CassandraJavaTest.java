package org.dsload.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java a Cassandra node is started with, when the user names one: refused, saying why, unless Cassandra runs on it. */
class CassandraJavaTest {
    @TempDir
    Path dir;

    private Path jdk(String name, String version) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name));
        Files.createDirectories(home.resolve("bin"));
        Files.createFile(home.resolve("bin/java"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    @Test
    void aNamedJdk17IsTakenAndANewerOneIsRefusedInOneSentence() throws Exception {
        Path seventeen = jdk("jdk-17", "17.0.15");
        assertEquals(seventeen.resolve("bin/java"), CassandraJava.named(seventeen.toString()));
        Path newer = jdk("jdk-25", "25");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CassandraJava.named(newer.toString()));
        assertEquals("Cassandra 5.0 runs on Java 17 or 11, and -Ddsload.cassandra.java=" + newer + " is Java 25: name a"
                + " JDK 17 there", e.getMessage());
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> CassandraJava.named(dir.resolve("nothing").toString()));
        assertEquals("-Ddsload.cassandra.java=" + dir.resolve("nothing") + " is neither a JDK home nor a java executable",
                none.getMessage());
    }
}
